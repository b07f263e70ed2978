/**
 * Image validation shared by face detection and image analysis: magic bytes, byte and pixel
 * limits, header decoding with sharp (cheap: no pixel decoding).
 */
import sharp from 'sharp';
import { BadMediaError, TooLargeError, UnsupportedMediaError } from './errors.js';

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'bmp' | 'tiff' | 'heif' | 'avif' | 'ico' | 'psd';

export interface ImageLimits {
  /** Largest accepted file. */
  maxBytes: number;
  /** Largest accepted width × height. */
  maxPixels: number;
}

export interface ImageInfo {
  format: ImageFormat;
  /** Size after applying the EXIF orientation (what a browser shows). */
  width: number;
  height: number;
}

const has = (buf: Uint8Array, offset: number, bytes: number[]): boolean =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** Identifies an image format from its first bytes (never from a name or a claimed MIME type). */
export function sniffImageFormat(buf: Uint8Array): ImageFormat | undefined {
  if (has(buf, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (has(buf, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (has(buf, 0, ascii('GIF87a')) || has(buf, 0, ascii('GIF89a'))) return 'gif';
  if (has(buf, 0, ascii('RIFF')) && has(buf, 8, ascii('WEBP'))) return 'webp';
  if (has(buf, 0, ascii('BM')) && buf.length >= 26) return 'bmp';
  if (has(buf, 0, [0x49, 0x49, 0x2a, 0x00]) || has(buf, 0, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (has(buf, 4, ascii('ftyp'))) {
    const brand = String.fromCharCode(...buf.subarray(8, 12));
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'mif1', 'msf1'].includes(brand)) return 'heif';
  }
  if (has(buf, 0, [0x00, 0x00, 0x01, 0x00])) return 'ico';
  if (has(buf, 0, ascii('8BPS'))) return 'psd';
  return undefined;
}

const NAMES: Record<ImageFormat, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  gif: 'GIF',
  webp: 'WebP',
  bmp: 'BMP',
  tiff: 'TIFF',
  heif: 'HEIF',
  avif: 'AVIF',
  ico: 'ICO',
  psd: 'PSD',
};

/** Checks format, size and header; throws UnsupportedMediaError, TooLargeError or BadMediaError. */
export async function inspectImage(
  image: Uint8Array,
  accepted: readonly ImageFormat[],
  limits: ImageLimits,
  feature: string,
): Promise<ImageInfo> {
  if (!((image as unknown) instanceof Uint8Array)) throw new BadMediaError('Image must be a Buffer');
  if (image.length === 0) throw new BadMediaError('Image is empty');
  const format = sniffImageFormat(image);
  const acceptedNames = accepted.map((f) => NAMES[f]).join(', ');
  if (!format || !accepted.includes(format)) {
    throw new UnsupportedMediaError(
      `${feature} accepts ${acceptedNames} images; this file is ${format ? NAMES[format] : 'not a recognised image format'}`,
    );
  }
  if (image.length > limits.maxBytes) {
    throw new TooLargeError(`Image is ${image.length} bytes; the limit is ${limits.maxBytes} bytes`);
  }
  let width: number;
  let height: number;
  try {
    const meta = await sharp(image, { limitInputPixels: false }).metadata();
    width = meta.autoOrient?.width ?? meta.width ?? 0;
    height = meta.autoOrient?.height ?? meta.height ?? 0;
  } catch (error) {
    throw new BadMediaError(`Image could not be read as ${NAMES[format]}: ${(error as Error).message}`);
  }
  if (!(width > 0 && height > 0)) throw new BadMediaError(`Image has no valid dimensions`);
  if (width * height > limits.maxPixels) {
    throw new TooLargeError(
      `Image is ${width}×${height} (${((width * height) / 1e6).toFixed(1)} megapixels); the limit is ${(limits.maxPixels / 1e6).toFixed(1)} megapixels`,
    );
  }
  return { format, width, height };
}

export interface DecodedRgb {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Fully decodes (EXIF-oriented) to 8-bit RGB, shrunk to fit maxSide. Corrupt or truncated data →
 * BadMediaError (sharp's failOn 'warning' makes libjpeg's "premature end" warnings fatal).
 */
export async function decodeRgb(image: Uint8Array, maxSide: number, maxPixels: number): Promise<DecodedRgb> {
  try {
    const { data, info } = await sharp(image, { autoOrient: true, failOn: 'warning', limitInputPixels: maxPixels })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw new BadMediaError(`Image is corrupt or truncated: ${(error as Error).message}`);
  }
}
