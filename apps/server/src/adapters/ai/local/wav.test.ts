import { describe, expect, it } from 'vitest';
import { BadMediaError, TooLargeError, UnsupportedMediaError } from './errors.js';
import { makeWav } from './testing/audio.js';
import { parseWav } from './wav.js';
import { toDisplayText } from './stt-format.js';

const limits = { maxSeconds: 60, maxBytes: 10_000_000 };

describe('parseWav', () => {
  it('reads a PCM header and computes the duration', () => {
    const info = parseWav(makeWav(new Int16Array(8000 * 2 * 3), 8000, 2), limits);
    expect(info).toMatchObject({ format: 1, channels: 2, sampleRate: 8000, bitsPerSample: 16, dataOffset: 44 });
    expect(info.durationSeconds).toBeCloseTo(3, 5);
  });

  it('skips unknown chunks and uses the bytes present when the size field is a placeholder', () => {
    const wav = makeWav(new Int16Array(1600), 16000);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc'), Buffer.from([0])]);
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    withList.writeUInt32LE(0xffffffff, 36 + list.length + 4);
    const info = parseWav(withList, limits);
    expect(info.dataLength).toBe(3200);
    expect(info.durationSeconds).toBeCloseTo(0.1, 5);
  });

  it('rejects non-WAV, truncated and inconsistent headers', () => {
    expect(() => parseWav(Buffer.from('hello'), limits)).toThrow(BadMediaError);
    expect(() => parseWav(makeWav(new Int16Array(10), 16000).subarray(0, 30), limits)).toThrow(BadMediaError);
    const bad = makeWav(new Int16Array(10), 16000);
    bad.writeUInt16LE(3, 32); // block align
    expect(() => parseWav(bad, limits)).toThrow(BadMediaError);
    const adpcm = makeWav(new Int16Array(10), 16000);
    adpcm.writeUInt16LE(2, 20);
    expect(() => parseWav(adpcm, limits)).toThrow(UnsupportedMediaError);
  });

  it('enforces duration and size limits', () => {
    expect(() => parseWav(makeWav(new Int16Array(16000 * 61), 16000), limits)).toThrow(TooLargeError);
    expect(() => parseWav(makeWav(new Int16Array(100), 16000), { maxSeconds: 60, maxBytes: 100 })).toThrow(
      TooLargeError,
    );
  });
});

describe('toDisplayText', () => {
  it('capitalises and punctuates like Azure', () => {
    expect(toDisplayText('hello world')).toBe('Hello world.');
    expect(toDisplayText("i think i'm here")).toBe("I think I'm here.");
    expect(toDisplayText('  ')).toBe('');
  });
});
