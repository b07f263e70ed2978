import { AppError } from '../../errors';
import { BadInputError } from './local/errors';
import { ssmlToText as readSsml } from './local/ssml';
/** Small, dependency-free readers for the media the AI services accept. */
import { readWavHeader } from './local/wav';

/** True when the bytes start like a RIFF/WAVE file. */
export const looksLikeWav = (data: Buffer) =>
  data.length >= 12 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WAVE';

/** The length of a WAV file's audio, from the bytes present (0 when the header is not valid). */
export function wavSeconds(data: Buffer): number {
  try {
    return readWavHeader(data).durationSeconds;
  } catch {
    return 0;
  }
}

export type ImageKind = 'jpeg' | 'png';

/** Recognises JPEG and PNG by their signatures (the only formats the image services accept). */
export function sniffImage(data: Buffer): ImageKind | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  return null;
}

/**
 * Width and height from a PNG IHDR or a JPEG SOF marker, without decoding
 * pixels. Null when the header is damaged.
 */
export function imageSize(data: Buffer, kind: ImageKind): { width: number; height: number } | null {
  if (kind === 'png') {
    if (data.length < 24 || data.toString('ascii', 12, 16) !== 'IHDR') return null;
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  let offset = 2;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (offset + 9 > data.length) return null;
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

export const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** SSML for plain text with a US English female voice. */
export const textToSsml = (text: string, voice: string) =>
  `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">` +
  `<voice xml:lang="en-US" xml:gender="Female" name="${escapeXml(voice)}">${escapeXml(text)}</voice></speak>`;

/**
 * The spoken text of an SSML document, for engines and providers without SSML and for the length limits: the one
 * SSML reader (`local/ssml.ts`: numeric entities, CDATA, `<sub alias>`, breaks). A document that is not a
 * well-formed `<speak>` element is a 400.
 */
export function ssmlToText(ssml: string): string {
  try {
    return readSsml(ssml);
  } catch (error) {
    if (error instanceof BadInputError) throw new AppError('BAD_REQUEST', `${error.message}.`);
    throw error;
  }
}
