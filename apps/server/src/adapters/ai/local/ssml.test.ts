import { describe, expect, it } from 'vitest';
import { BadInputError } from './errors.js';
import { decodeXmlEntities, ssmlToText } from './ssml.js';

describe('ssmlToText', () => {
  it('keeps the text of <speak>, drops tags, decodes entities', () => {
    expect(
      ssmlToText(
        '<?xml version="1.0"?><!-- note --><speak version="1.0" xml:lang="en-US"><voice name="x"><prosody rate="slow">Tom &amp; Jerry</prosody> say &quot;hi&quot; &#x263A;</voice></speak>',
      ),
    ).toBe('Tom & Jerry say "hi" ☺');
  });

  it('uses <sub alias>, turns <break> and </p> into pauses, keeps CDATA literally', () => {
    expect(ssmlToText('<speak><sub alias="World Wide Web">WWW</sub> rocks<break/>yes</speak>')).toBe(
      'World Wide Web rocks, yes',
    );
    expect(ssmlToText('<speak><p>One</p><p>Two</p></speak>')).toBe('One. Two.');
    expect(ssmlToText('<speak><![CDATA[a < b]]></speak>')).toBe('a < b');
  });

  it('rejects documents without <speak>', () => {
    expect(() => ssmlToText('hello')).toThrow(BadInputError);
    expect(() => ssmlToText('<speak>unclosed')).toThrow(BadInputError);
  });

  it('leaves unknown entities alone', () => {
    expect(decodeXmlEntities('&bogus; &#0; &lt;')).toBe('&bogus; &#0; <');
  });
});
