import { describe, expect, it } from 'vitest';
import { encodeWav } from './wav';

const readBlob = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });

describe('encodeWav', () => {
  it('writes a 16 kHz mono PCM16 RIFF header and clamped little-endian samples', async () => {
    const blob = encodeWav(new Float32Array([0, 1, -1, 0.5, 2, -2]), 16_000);
    expect(blob.type).toBe('audio/wav');
    const view = new DataView(await readBlob(blob));
    const text = (offset: number) => String.fromCharCode(...[0, 1, 2, 3].map((i) => view.getUint8(offset + i)));
    expect(view.byteLength).toBe(44 + 12);
    expect(text(0)).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(36 + 12);
    expect(text(8)).toBe('WAVE');
    expect(text(12)).toBe('fmt ');
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint32(28, true)).toBe(32_000);
    expect(view.getUint16(32, true)).toBe(2);
    expect(view.getUint16(34, true)).toBe(16);
    expect(text(36)).toBe('data');
    expect(view.getUint32(40, true)).toBe(12);
    const samples = [0, 1, 2, 3, 4, 5].map((i) => view.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 32767, -32768, 16383, 32767, -32768]);
  });
});
