import { describe, expect, it } from 'vitest';
import { encodeWav, toMono16k } from './wav';

describe('browser WAV encoding', () => {
  it('writes a 16 kHz mono 16-bit PCM header and clamps samples', () => {
    const wav = new DataView(encodeWav(new Float32Array([0, 1, -1, 2]), 16000));
    const text = (offset: number) => String.fromCharCode(...[0, 1, 2, 3].map((i) => wav.getUint8(offset + i)));
    expect(text(0)).toBe('RIFF');
    expect(text(8)).toBe('WAVE');
    expect(wav.getUint16(22, true)).toBe(1);
    expect(wav.getUint32(24, true)).toBe(16000);
    expect(wav.getUint16(34, true)).toBe(16);
    expect(wav.getUint32(40, true)).toBe(8);
    expect([0, 1, 2, 3].map((i) => wav.getInt16(44 + i * 2, true))).toEqual([0, 32767, -32768, 32767]);
  });

  it('mixes stereo to mono and resamples 48 kHz to 16 kHz', () => {
    const left = new Float32Array(48000).fill(0.5);
    const right = new Float32Array(48000).fill(-0.1);
    const out = toMono16k([left, right], 48000);
    expect(out.length).toBe(16000);
    expect(out[100]).toBeCloseTo(0.2, 5);
  });
});
