import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadInputError, TooLargeError } from './errors.js';
import { createTextToSpeech, prepareSpeechText, type TextToSpeechEngine } from './text-to-speech.js';

let tts: TextToSpeechEngine;

beforeAll(async () => {
  tts = createTextToSpeech();
  await tts.warmUp();
});
afterAll(async () => {
  await tts.close();
});

interface Probe {
  streams: { codec_name: string; sample_rate: string; channels: number; bit_rate: string }[];
  format: { format_name: string; duration: string };
}

/** ffprobe reading the MP3 from stdin. */
function probe(mp3: Buffer): Probe {
  const out = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,sample_rate,channels,bit_rate:format=format_name,duration',
      '-of',
      'json',
      '-i',
      'pipe:0',
    ],
    { input: mp3 },
  );
  return JSON.parse(out.toString('utf8')) as Probe;
}

describe('text-to-speech (flite slt | lame, in a worker)', () => {
  it('produces MP3, 16 kHz, mono, 32 kbit/s', async () => {
    const mp3 = await tts.synthesize({ text: 'Hello world, this is a test of the local speech engine.' });
    const info = probe(mp3);
    expect(info.format.format_name).toBe('mp3');
    expect(info.streams).toHaveLength(1);
    const [stream] = info.streams;
    if (!stream) throw new Error('no audio stream');
    expect(stream.codec_name).toBe('mp3');
    expect(stream.sample_rate).toBe('16000');
    expect(stream.channels).toBe(1);
    expect(Number(stream.bit_rate)).toBeGreaterThanOrEqual(31_000);
    expect(Number(stream.bit_rate)).toBeLessThanOrEqual(33_000);
    // CBR 32 kbit/s: 4000 bytes per second of speech.
    expect(mp3.length / 4000).toBeGreaterThan(2);
  });

  it('speaks SSML: only the text inside <speak>, entities decoded', async () => {
    const ssml =
      '<?xml version="1.0"?><speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">' +
      '<voice name="en-US-JennyNeural">Fish &amp; chips<break time="300ms"/> cost &#36;5.</voice></speak>';
    const mp3 = await tts.synthesize({ ssml });
    expect(probe(mp3).streams[0]?.codec_name).toBe('mp3');
    // The decoded MP3 is about as long as the spoken text, not the markup.
    const longer = await tts.synthesize({ text: ssml });
    expect(longer.length).toBeGreaterThan(mp3.length * 1.5);
  });

  it('rejects blank input and over-long input', async () => {
    await expect(tts.synthesize({ text: '   ' })).rejects.toBeInstanceOf(BadInputError);
    await expect(tts.synthesize({})).rejects.toBeInstanceOf(BadInputError);
    await expect(tts.synthesize({ ssml: '<speak> </speak>' })).rejects.toBeInstanceOf(BadInputError);
    await expect(tts.synthesize({ text: 'a', ssml: '<speak>b</speak>' })).rejects.toBeInstanceOf(BadInputError);
    await expect(tts.synthesize({ text: 'word '.repeat(1001) })).rejects.toBeInstanceOf(TooLargeError);
  });

  it('passes text as data, never as shell or option syntax', async () => {
    const mp3 = await tts.synthesize({ text: '-o /tmp/x "$(touch /tmp/ai-local-pwned)" `id`; echo hi' });
    expect(probe(mp3).streams[0]?.codec_name).toBe('mp3');
    expect(spawnSync('test', ['-e', '/tmp/ai-local-pwned']).status).toBe(1);
  });

  it('folds accents and typographic punctuation for flite', () => {
    expect(prepareSpeechText({ text: 'Café “déjà vu” — naïve…' }, 100)).toBe('Cafe "deja vu" - naive...');
    expect(() => prepareSpeechText({ text: '日本語' }, 100)).toThrow(BadInputError);
  });
});
