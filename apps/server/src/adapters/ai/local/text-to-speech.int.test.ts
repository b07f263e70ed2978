import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadInputError, TooLargeError } from './errors.js';
import { createSpeechToText, type SpeechToTextEngine } from './speech-to-text.js';
import { createTextToSpeech, prepareSpeech, type TextToSpeechEngine } from './text-to-speech.js';

let tts: TextToSpeechEngine;
let flite: TextToSpeechEngine;
let stt: SpeechToTextEngine;

beforeAll(async () => {
  // The default voice is festival's HTS voice (installed by .ci/run); flite stays the fast option.
  tts = createTextToSpeech();
  flite = createTextToSpeech({ voice: 'flite' });
  stt = createSpeechToText();
  await Promise.all([tts.warmUp(), flite.warmUp(), stt.warmUp()]);
});
afterAll(async () => {
  await Promise.all([tts.close(), flite.close(), stt.close()]);
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

describe('text-to-speech (festival HTS or flite, sox, lame, in a worker)', () => {
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

  it('folds accents and typographic punctuation for the engines', () => {
    expect(prepareSpeech({ text: 'Café “déjà vu” — naïve…' }, 100)).toEqual([
      { text: 'Cafe "deja vu" - naive...', rate: 1, pitchCents: 0 },
    ]);
    expect(() => prepareSpeech({ text: '日本語' }, 100)).toThrow(BadInputError);
  });

  it.each([
    ['festival', () => tts],
    ['flite', () => flite],
  ])('%s speaks a sentence the offline recogniser understands back', async (_voice, engine) => {
    const sentence = 'the meeting is on monday morning please bring the budget report';
    const heard = await stt.transcribe(toWav(await engine().synthesize({ text: `${sentence}.` })));
    const said = new Set(words(heard.DisplayText));
    const missed = words(sentence).filter((word) => !said.has(word));
    expect(missed.length, `heard "${heard.DisplayText}"`).toBeLessThanOrEqual(3);
  });

  it('honours SSML prosody: a slower rate is longer, a faster one shorter, a higher pitch is higher', async () => {
    const say = (attrs: string) =>
      tts.synthesize({ ssml: `<speak><prosody ${attrs}>Please bring the budget report on Monday.</prosody></speak>` });
    const [normal, slow, fast, high] = await Promise.all([
      say('rate="medium"'),
      say('rate="slow"'),
      say('rate="+60%"'),
      say('pitch="x-high"'),
    ]);
    // CBR 32 kbit/s: 4000 bytes a second.
    const seconds = (mp3: Buffer) => mp3.length / 4000;
    expect(seconds(slow)).toBeGreaterThan(seconds(normal) * 1.3);
    expect(seconds(fast)).toBeLessThan(seconds(normal) * 0.8);
    // The same words at about the same length, but a higher voice: more zero crossings per second.
    expect(seconds(high)).toBeGreaterThan(seconds(normal) * 0.9);
    expect(roughFrequency(high)).toBeGreaterThan(roughFrequency(normal) * 1.15);
  });

  it('rejects a prosody value that is not a rate or a pitch', async () => {
    await expect(tts.synthesize({ ssml: '<speak><prosody rate="warp">x</prosody></speak>' })).rejects.toBeInstanceOf(
      BadInputError,
    );
    await expect(tts.synthesize({ ssml: '<speak><prosody pitch="loud">x</prosody></speak>' })).rejects.toBeInstanceOf(
      BadInputError,
    );
  });
});

/** The MP3 decoded to the WAV the recogniser takes (16 kHz, 16 bit, mono). */
function toWav(mp3: Buffer): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-ar', '16000', '-ac', '1', '-f', 'wav', 'pipe:1'], {
    input: mp3,
  });
}

/** sox's zero-crossing estimate of the fundamental frequency, in Hz. */
function roughFrequency(mp3: Buffer): number {
  const result = spawnSync('sox', ['-t', 'wav', '-', '-n', 'stat'], { input: toWav(mp3), encoding: 'buffer' });
  const match = /Rough\s+frequency:\s+(\d+)/.exec(result.stderr.toString('utf8'));
  if (!match) throw new Error(`sox stat printed no frequency: ${result.stderr.toString('utf8')}`);
  return Number(match[1]);
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
