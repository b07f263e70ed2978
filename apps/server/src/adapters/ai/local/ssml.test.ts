import { describe, expect, it } from 'vitest';
import { BadInputError } from './errors.js';
import { decodeXmlEntities, prosodyPitchCents, prosodyRate, ssmlToSegments, ssmlToText } from './ssml.js';

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

describe('ssmlToSegments', () => {
  it('cuts the text where <prosody> changes rate or pitch; nested ones multiply and add', () => {
    expect(
      ssmlToSegments(
        '<speak>Normal. <prosody rate="slow">Slow <prosody pitch="+2st" rate="2">inner</prosody> again</prosody> end</speak>',
      ),
    ).toEqual([
      { text: 'Normal.', rate: 1, pitchCents: 0 },
      { text: 'Slow', rate: 0.64, pitchCents: 0 },
      { text: 'inner', rate: 1.28, pitchCents: 200 },
      { text: 'again', rate: 0.64, pitchCents: 0 },
      { text: 'end', rate: 1, pitchCents: 0 },
    ]);
  });

  it('joins neighbours with the same voice, skips empty stretches, holds rates and pitches to their limits', () => {
    expect(
      ssmlToSegments(
        '<speak><prosody rate="medium">a</prosody><prosody>b</prosody><prosody rate="fast"> </prosody></speak>',
      ),
    ).toEqual([{ text: 'a b', rate: 1, pitchCents: 0 }]);
    expect(ssmlToSegments('<speak><prosody rate="10" pitch="+40st">x</prosody></speak>')).toEqual([
      { text: 'x', rate: 2, pitchCents: 1200 },
    ]);
  });

  it('reads rates as names, multipliers and percentages, pitches as names, %, st and Hz', () => {
    expect([
      prosodyRate('x-slow'),
      prosodyRate('1.5'),
      prosodyRate('+20%'),
      prosodyRate('-50%'),
      prosodyRate('80%'),
    ]).toEqual([0.5, 1.5, 1.2, 0.5, 0.8]);
    expect(prosodyPitchCents('-3st')).toBe(-300);
    expect(Math.round(prosodyPitchCents('x-high'))).toBe(702);
    expect(Math.round(prosodyPitchCents('+100%'))).toBe(1200);
    expect(Math.round(prosodyPitchCents('360Hz'))).toBe(1200);
    expect(Math.round(prosodyPitchCents('-90Hz'))).toBe(-1200);
    expect(() => prosodyRate('warp')).toThrow(BadInputError);
    expect(() => prosodyPitchCents('5 st')).toThrow(BadInputError);
  });

  it('keeps CDATA that looks like a tag as text', () => {
    expect(ssmlToSegments('<speak><![CDATA[a <prosody rate="slow"> b]]></speak>')).toEqual([
      { text: 'a <prosody rate="slow"> b', rate: 1, pitchCents: 0 },
    ]);
  });
});
