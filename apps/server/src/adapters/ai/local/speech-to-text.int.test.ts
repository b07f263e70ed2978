import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadMediaError, EngineUnavailableError, TooLargeError, UnsupportedMediaError } from './errors.js';
import { createSpeechToText, type SpeechToTextEngine } from './speech-to-text.js';
import { TICKS_PER_SECOND } from './stt-format.js';
import { AudioFixtures, makeWav } from './testing/audio.js';

const fx = new AudioFixtures();
let stt: SpeechToTextEngine;
let hello: string;
let meeting: string;

beforeAll(async () => {
  stt = createSpeechToText();
  hello = fx.speak('hello world this is a test');
  meeting = fx.speak('good morning everyone welcome to the meeting');
  await stt.warmUp();
});

afterAll(async () => {
  await stt.close();
  fx.cleanup();
});

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, '')
    .split(/\s+/);

describe('speech-to-text (pocketsphinx via koffi, in a worker)', () => {
  it('transcribes 16 kHz flite speech in the Azure short-audio shape', async () => {
    const result = await stt.transcribe(readFileSync(hello));
    expect(result).toMatchObject({ RecognitionStatus: 'Success', DisplayText: 'Hello world this is a test.' });
    expect(Number.isInteger(result.Offset)).toBe(true);
    expect(result.Duration).toBeGreaterThan(1 * TICKS_PER_SECOND);
    expect(result.Duration).toBeLessThan(2.5 * TICKS_PER_SECOND);
  });

  it('resamples 8 kHz mono and 44.1 kHz stereo to 16 kHz mono', async () => {
    const at8k = fx.sox([meeting, '-r', '8000', 'OUT']);
    const at44kStereo = fx.sox([meeting, '-r', '44100', '-c', '2', 'OUT']);
    expect(at8k.readUInt32LE(24)).toBe(8000);
    expect(at44kStereo.readUInt32LE(24)).toBe(44100);
    expect(at44kStereo.readUInt16LE(22)).toBe(2);
    for (const wav of [at8k, at44kStereo]) {
      const result = await stt.transcribe(wav);
      expect(result.RecognitionStatus).toBe('Success');
      expect(words(result.DisplayText)).toEqual(expect.arrayContaining(['morning', 'welcome', 'meeting']));
    }
    const hello44kStereo = fx.sox([hello, '-r', '44100', '-c', '2', 'OUT']);
    expect((await stt.transcribe(hello44kStereo)).DisplayText).toBe('Hello world this is a test.');
  });

  it('accepts 32-bit float WAV', async () => {
    const float = fx.sox([hello, '-e', 'floating-point', '-b', '32', '-r', '22050', 'OUT']);
    const result = await stt.transcribe(float);
    expect(words(result.DisplayText)).toEqual(expect.arrayContaining(['hello', 'world', 'test']));
  });

  it('reports the offset of speech after leading silence, and gives the same text on repeat', async () => {
    const plain = await stt.transcribe(readFileSync(hello));
    const padded = await stt.transcribe(fx.sox([hello, 'OUT', 'pad', '1.5', '0']));
    expect(padded.RecognitionStatus).toBe('Success');
    expect(words(padded.DisplayText)).toEqual(expect.arrayContaining(['hello', 'test']));
    expect(padded.Offset - plain.Offset).toBeGreaterThan(1.45 * TICKS_PER_SECOND);
    expect(padded.Offset - plain.Offset).toBeLessThan(1.55 * TICKS_PER_SECOND);
    expect(Math.abs(padded.Duration - plain.Duration)).toBeLessThan(0.05 * TICKS_PER_SECOND);
    expect(await stt.transcribe(readFileSync(hello))).toEqual(plain);
  });

  it('returns InitialSilenceTimeout (or NoMatch) for silence', async () => {
    const silence = makeWav(new Int16Array(16000 * 3), 16000);
    const result = await stt.transcribe(silence);
    expect(result).toEqual({
      RecognitionStatus: 'InitialSilenceTimeout',
      DisplayText: '',
      Offset: 3 * TICKS_PER_SECOND,
      Duration: 0,
    });
    const hiss = new Int16Array(16000 * 2).map(() => Math.round((Math.random() - 0.5) * 2000));
    const noise = await stt.transcribe(makeWav(hiss, 16000));
    expect(['NoMatch', 'Success']).toContain(noise.RecognitionStatus);
  });

  it("favours the workspace's own words when given its text (adaptation)", async () => {
    // The opening of Pride and Prejudice stands for a workspace's stored text; the recording speaks part of it.
    const workspaceText =
      'It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want ' +
      'of a wife. However little known the feelings or views of such a man may be on his first entering a ' +
      'neighbourhood, this truth is so well fixed in the minds of the surrounding families, that he is considered ' +
      'the rightful property of some one or other of their daughters.';
    const spoken = 'however little known the feelings or views of such a man may be';
    const wav = readFileSync(fx.speak(spoken));
    const generic = words((await stt.transcribe(wav)).DisplayText);
    const adapted = words((await stt.transcribe(wav, { adaptationText: workspaceText })).DisplayText);
    expect(adapted).toEqual(spoken.split(' '));
    const recognised = (hyp: string[]) => spoken.split(' ').filter((w) => hyp.includes(w)).length;
    expect(recognised(generic)).toBeLessThan(recognised(adapted));
    // The next request without the text is decoded with the generic model again.
    expect(words((await stt.transcribe(wav)).DisplayText)).toEqual(generic);
    // The first adapted request of a worker reads the generic model a second time and merges the two vocabularies.
  }, 180_000);

  it('rejects random bytes with BadMediaError', async () => {
    await expect(stt.transcribe(randomBytes(4096))).rejects.toBeInstanceOf(BadMediaError);
  });

  it('rejects a WAV header with no samples and a compressed WAV', async () => {
    await expect(stt.transcribe(makeWav(new Int16Array(0), 16000))).rejects.toBeInstanceOf(BadMediaError);
    const mp3InWav = makeWav(new Int16Array(100), 16000);
    mp3InWav.writeUInt16LE(0x55, 20);
    await expect(stt.transcribe(mp3InWav)).rejects.toBeInstanceOf(UnsupportedMediaError);
  });

  it('rejects audio longer than 60 s with TooLargeError', async () => {
    const long = makeWav(new Int16Array(8000 * 61), 8000);
    const error = await stt.transcribe(long).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooLargeError);
    expect((error as TooLargeError).message).toMatch(/61\.0 s.*60 s/);
  });

  it('names the Debian package when the model is missing', async () => {
    const broken = createSpeechToText({ modelDir: '/nonexistent/pocketsphinx' });
    try {
      const error = await broken.transcribe(readFileSync(hello)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineUnavailableError);
      expect((error as Error).message).toContain('apt-get install pocketsphinx-en-us');
      expect(broken.state()).toMatchObject({ status: 'error' });
      expect(broken.state().message).toContain('pocketsphinx-en-us');
    } finally {
      await broken.close();
    }
  });
});
