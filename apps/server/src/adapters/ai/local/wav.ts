/**
 * Minimal, strict RIFF/WAVE header parser (validation and duration; decoding is left to ffmpeg).
 * The one WAV rule of the server: `media.ts` (limits of every provider) uses `readWavHeader` too.
 */
import { BadMediaError, TooLargeError, UnsupportedMediaError } from './errors.js';

export interface WavInfo {
  /** 1 PCM, 3 IEEE float, 6 A-law, 7 mu-law (WAVE_FORMAT_EXTENSIBLE is resolved to its sub-format). */
  format: 1 | 3 | 6 | 7;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
  /** Byte offset and length of the audio samples actually present in the buffer. */
  dataOffset: number;
  dataLength: number;
  durationSeconds: number;
}

const FORMAT_NAMES: Record<number, string> = {
  0x0002: 'MS ADPCM',
  0x0011: 'IMA ADPCM',
  0x0050: 'MPEG',
  0x0055: 'MP3',
  0x00ff: 'AAC',
  0x1610: 'AAC',
};

export interface WavLimits {
  maxSeconds: number;
  maxBytes: number;
}

/**
 * Reads and checks a WAV header against itself: block alignment = channels × sample size, byte
 * rate = sample rate × block alignment, sane rate, channels and sample size. The duration comes
 * from the audio bytes actually present (data length ÷ (sample rate × block alignment)), never
 * from a header field, so a header that lies about its byte rate or data size cannot pass a
 * length limit. Throws BadMediaError / UnsupportedMediaError; `dataLength` may be 0.
 */
export function readWavHeader(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE') {
    if (buf.length >= 4 && buf.toString('latin1', 0, 4) === 'RF64') {
      throw new UnsupportedMediaError('RF64 WAV files are not supported; send a RIFF WAV file');
    }
    throw new BadMediaError('Audio is not a WAV file (missing RIFF/WAVE header)');
  }
  let offset = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataLength' | 'durationSeconds'> | undefined;
  let data: { offset: number; length: number } | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('latin1', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + size > buf.length) throw new BadMediaError('WAV "fmt " chunk is truncated');
      let format = buf.readUInt16LE(body);
      const channels = buf.readUInt16LE(body + 2);
      const sampleRate = buf.readUInt32LE(body + 4);
      const byteRate = buf.readUInt32LE(body + 8);
      const blockAlign = buf.readUInt16LE(body + 12);
      const bitsPerSample = buf.readUInt16LE(body + 14);
      if (format === 0xfffe) {
        if (size < 40) throw new BadMediaError('WAV extensible "fmt " chunk is truncated');
        format = buf.readUInt16LE(body + 24); // first two bytes of the sub-format GUID
      }
      if (format !== 1 && format !== 3 && format !== 6 && format !== 7) {
        const name = FORMAT_NAMES[format] ?? `format tag 0x${format.toString(16)}`;
        throw new UnsupportedMediaError(`WAV encoding ${name} is not supported; send PCM, float, A-law or mu-law WAV`);
      }
      if (channels < 1 || channels > 8) throw new BadMediaError(`WAV has an invalid channel count (${channels})`);
      if (sampleRate < 4000 || sampleRate > 192000) {
        throw new BadMediaError(`WAV has an unsupported sample rate (${sampleRate} Hz)`);
      }
      const validBits =
        (format === 1 && [8, 16, 24, 32].includes(bitsPerSample)) ||
        (format === 3 && [32, 64].includes(bitsPerSample)) ||
        ((format === 6 || format === 7) && bitsPerSample === 8);
      if (!validBits) throw new BadMediaError(`WAV has an invalid sample size (${bitsPerSample} bits)`);
      if (blockAlign !== channels * (bitsPerSample / 8)) {
        throw new BadMediaError('WAV header is inconsistent (block alignment does not match channels × sample size)');
      }
      if (byteRate !== sampleRate * blockAlign) {
        throw new BadMediaError('WAV header is inconsistent (byte rate does not match sample rate × block alignment)');
      }
      fmt = { format, channels, sampleRate, bitsPerSample, blockAlign };
    } else if (id === 'data') {
      // Streamed WAVs may carry 0 or 0xFFFFFFFF as size: use what is present.
      const available = buf.length - body;
      const declared = size === 0 || size === 0xffffffff ? available : size;
      data = { offset: body, length: Math.min(declared, available) };
      break;
    }
    offset = body + size + (size % 2);
  }
  if (!fmt) throw new BadMediaError('WAV has no "fmt " chunk before its audio data');
  if (!data) throw new BadMediaError('WAV has no "data" chunk');
  const dataLength = data.length - (data.length % fmt.blockAlign);
  const durationSeconds = dataLength / (fmt.sampleRate * fmt.blockAlign);
  return { ...fmt, dataOffset: data.offset, dataLength, durationSeconds };
}

export function parseWav(buf: Buffer, limits: WavLimits): WavInfo {
  if (buf.length > limits.maxBytes) {
    throw new TooLargeError(`Audio is ${buf.length} bytes; the limit is ${limits.maxBytes} bytes`);
  }
  const info = readWavHeader(buf);
  if (info.dataLength <= 0) throw new BadMediaError('WAV contains no audio samples');
  if (info.durationSeconds > limits.maxSeconds) {
    throw new TooLargeError(`Audio is ${info.durationSeconds.toFixed(1)} s long; the limit is ${limits.maxSeconds} s`);
  }
  return info;
}
