import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { categoryLabel, type FileInsights, type TranscriptSegment } from '@atrium/contracts';
import { IMAGE_TYPES } from '@atrium/contracts/texts';
import sharp from 'sharp';
import { requireExecutable, runPipeline } from '../../adapters/ai/local/system';
import { AppError } from '../../errors';
import { PermanentJobError } from '../../jobs/queue';
import { ocr } from './ocr';
import type { AiService } from '../ai';

/** The kinds of analysis (one queue kind each, with its own concurrency). */
export type AnalysisKind = 'image' | 'audio' | 'document' | 'text';

/**
 * Jobs of each kind run at once on one instance. Images and audio go through the AI engines' worker pools, which run
 * one job at a time by default (their queue limit is shared with interactive requests, so background work never
 * fills it); OCR and pdftotext are child processes, one core each.
 */
export const KIND_CONCURRENCY: Record<AnalysisKind, number> = { image: 1, audio: 1, document: 1, text: 2 };

const IMAGES = new Set(IMAGE_TYPES);
const AUDIO_VIDEO = /^(audio|video)\//;
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'application/json']);

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Which analysis a stored file gets, from its sniffed content type; undefined: none (`unsupported`). */
export function kindOf(contentType: string): AnalysisKind | undefined {
  if (IMAGES.has(contentType)) return 'image';
  if (AUDIO_VIDEO.test(contentType) || contentType === 'application/ogg') return 'audio';
  if (contentType === 'application/pdf' || contentType === DOCX) return 'document';
  if (TEXT_TYPES.has(contentType)) return 'text';
  return undefined;
}

/** Largest text kept per file (OCR, document text, text files), in characters. */
export const MAX_TEXT_CHARS = 200_000;
/** Longest recording transcribed, in seconds (its 16 kHz PCM, 115 MB at most, is held while it is transcribed). */
export const MAX_AUDIO_SECONDS = 60 * 60;
/** Largest image, PDF or text file read into memory for analysis. */
export const MAX_ANALYSED_BYTES = 100 * 1024 * 1024;
/** Largest recording or video analysed (streamed to a temporary file, never held in memory). */
export const MAX_MEDIA_BYTES = 8 * 1024 * 1024 * 1024;

export type Result = Omit<FileInsights, 'status' | 'progress' | 'analysedAt' | 'error'> & {
  engine: string;
  /** Each face's box (fractions) and recognition descriptor, when People is on for the file's space. */
  people?: { box: { left: number; top: number; width: number; height: number }; descriptor: number[] }[];
};

export interface AnalyserInput {
  /** The whole file in memory (refused above MAX_ANALYSED_BYTES). */
  read(): Promise<Buffer>;
  /** The file as a stream (recordings and videos, copied to a temporary file). */
  open(): Promise<NodeJS.ReadableStream>;
  /** Whether faces may be detected (a workspace's `no-faces` setting turns it off). */
  faces: boolean;
  /** Whether faces get their recognition descriptors (People is on for the file's space). */
  people?: boolean;
  contentType: string;
  /** Recordings: the space's own words, to adapt the speech engine's language model to (docs/PRODUCT.md#transcripts). */
  adaptationText?: string;
  signal: AbortSignal;
  progress(fraction: number): Promise<void>;
}

/**
 * What a failure means for the job: `unavailable` (the engine is not installed or disabled: the file's analysis is
 * `unsupported`), `bad` (this file cannot be analysed: failed at once), `retry` (busy, time-out, crash).
 */
export function classify(error: unknown): 'unavailable' | 'bad' | 'retry' {
  if (error instanceof AppError) {
    if (error.code === 'SERVICE_UNAVAILABLE') return error.headers?.['retry-after'] ? 'retry' : 'unavailable';
    if (error.statusCode >= 400 && error.statusCode < 500 && error.code !== 'TIMEOUT') return 'bad';
    return 'retry';
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENGINE_UNAVAILABLE') return 'unavailable';
  if (code === 'TOO_LARGE' || code === 'BAD_MEDIA' || code === 'UNSUPPORTED_MEDIA' || code === 'BAD_INPUT')
    return 'bad';
  return 'retry';
}

/** Runs one part of an analysis: undefined (with the reason noted) when its engine is not available here. */
async function part<T>(name: string, missing: string[], work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    const kind = classify(error);
    if (kind === 'unavailable') {
      missing.push(`${name}: ${(error as Error).message}`);
      return undefined;
    }
    if (kind === 'bad') throw new PermanentJobError(`${name}: ${(error as Error).message}`);
    throw error;
  }
}

/** `pages`: keep pdftotext's page breaks (form feeds), where Ask's passages find their page. */
const cleanText = (text: string, pages = false) =>
  text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, pages ? '\f' : '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .slice(0, MAX_TEXT_CHARS);

/** A PDF's text: poppler's pdftotext (stdin → stdout). */
export async function pdfText(pdf: Buffer, timeoutMs = 120_000): Promise<string> {
  const pdftotext = requireExecutable('pdftotext', 'poppler-utils', 'PDF text');
  const out = await runPipeline([{ command: pdftotext, args: ['-enc', 'UTF-8', '-', '-'] }], {
    input: pdf,
    timeoutMs,
    maxOutputBytes: 16 * 1024 * 1024,
    label: 'PDF text',
  });
  return cleanText(out.toString('utf8'), true);
}

export async function analyseText({ read }: AnalyserInput): Promise<Result> {
  const bytes = await read();
  const head = bytes.subarray(0, MAX_TEXT_CHARS * 4);
  return { text: cleanText(new TextDecoder('utf-8').decode(head)), engine: 'text' };
}

export async function analyseDocument({ read, contentType }: AnalyserInput): Promise<Result> {
  const bytes = await read();
  if (contentType === DOCX) {
    // mammoth (maintained, pure JavaScript): the document's raw text, paragraphs separated by blank lines.
    const mammoth = await import('mammoth');
    try {
      const { value } = await mammoth.extractRawText({ buffer: bytes });
      return { text: cleanText(value), engine: 'mammoth' };
    } catch (error) {
      throw new PermanentJobError(`The document could not be read: ${(error as Error).message}`);
    }
  }
  const text = await part('PDF text', [], () => pdfText(bytes));
  if (text === undefined)
    throw new PermanentJobError('PDF text needs the Debian package poppler-utils.', 'unsupported');
  return { text, engine: 'poppler pdftotext' };
}

const topEmotion = (emotion: Record<string, number>) =>
  Object.entries(emotion).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'neutral';

export async function analyseImage(
  ai: AiService,
  { read, faces: detectFaces, people, progress }: AnalyserInput,
): Promise<Result> {
  // What the engines accept: a JPEG within the image limits (any type sharp decodes, turned upright, at most 2048 px).
  const bytes = await read();
  let decoded: { jpeg: Buffer; png: Buffer; width: number; height: number };
  try {
    const image = sharp(bytes, { limitInputPixels: ai.limits.imagePixels }).rotate();
    const fitted = image.resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true });
    const { data: jpeg, info } = await fitted
      .clone()
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    const png = await fitted.clone().flatten({ background: '#ffffff' }).greyscale().png().toBuffer();
    decoded = { jpeg, png, width: info.width, height: info.height };
  } catch (error) {
    throw new PermanentJobError(`The image could not be read: ${(error as Error).message}`);
  }
  const missing: string[] = [];
  const analysis = await part('Image analysis', missing, () => ai.analyzeImage(decoded.jpeg));
  await progress(0.4);
  // People: one detection that also computes descriptors (the local engine only); plain detection otherwise.
  const described =
    detectFaces && people ? await part('People', missing, () => ai.describeFaces(decoded.jpeg)) : undefined;
  const faces =
    described ?? (detectFaces ? await part('Face detection', missing, () => ai.detectFaces(decoded.jpeg)) : undefined);
  await progress(0.7);
  const recognised = await part('Text recognition', missing, () => ocr(decoded.png));
  const text = recognised && cleanText(recognised.text);
  if (!analysis && !faces && text === undefined) throw new PermanentJobError(missing.join(' '), 'unsupported');
  const status = ai.status();
  const engines = [
    analysis && `image analysis (${status.imageAnalysis.provider})`,
    faces && `face detection (${status.faceDetection.provider})`,
    recognised && (recognised.rotated ? `tesseract OCR (turned ${recognised.rotated}°)` : 'tesseract OCR'),
  ].filter(Boolean);
  const boxOf = (rectangle: { left: number; top: number; width: number; height: number }) => ({
    left: rectangle.left / decoded.width,
    top: rectangle.top / decoded.height,
    width: rectangle.width / decoded.width,
    height: rectangle.height / decoded.height,
  });
  return {
    text,
    caption: analysis?.description.captions[0]?.text,
    tags: analysis?.description.tags,
    objects: analysis?.categories.map((c) => ({ name: categoryLabel(c.name), confidence: c.score })),
    colors: analysis && {
      dominant: analysis.color.dominantColors,
      accent: analysis.color.accentColor,
      blackAndWhite: analysis.color.isBWImg,
    },
    ...(described
      ? { people: described.map((face) => ({ box: boxOf(face.faceRectangle), descriptor: face.descriptor })) }
      : {}),
    faces: faces?.map((face) => ({
      box: boxOf(face.faceRectangle),
      age: face.faceAttributes.age,
      gender: face.faceAttributes.gender,
      emotion: topEmotion(face.faceAttributes.emotion),
    })),
    engine:
      engines.join(', ') +
      (missing.length > 0 ? `; not available: ${missing.map((m) => m.split(':')[0]).join(', ')}` : ''),
  };
}

/** A WAV file (16 kHz mono 16-bit PCM) around raw samples. */
function wav(samples: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** Finds the PCM samples of the WAV ffmpeg wrote (its header may carry a LIST chunk). */
function pcmOf(file: Buffer): Buffer {
  let offset = 12;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    if (id === 'data') return file.subarray(offset + 8);
    offset += 8 + size + (size % 2);
  }
  return Buffer.alloc(0);
}

/** Words kept for adaptation (the most recent first), and the fewest worth adapting to. */
export const ADAPTATION_MAX_WORDS = 20_000;
export const ADAPTATION_MIN_WORDS = 200;

/**
 * The text a recording's transcript is adapted to (docs/PRODUCT.md#transcripts): the space's texts, newest first,
 * cut at `maxWords` words; undefined below `minWords` (too little to estimate word pairs from: no adaptation).
 */
export function adaptationTextOf(
  texts: readonly (string | null | undefined)[],
  { maxWords = ADAPTATION_MAX_WORDS, minWords = ADAPTATION_MIN_WORDS } = {},
): string | undefined {
  const kept: string[] = [];
  let count = 0;
  for (const text of texts) {
    if (!text) continue;
    const words = text.split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const taken = words.slice(0, maxWords - count);
    kept.push(taken.join(' '));
    count += taken.length;
    if (count >= maxWords) break;
  }
  return count >= minWords ? kept.join('\n') : undefined;
}

/**
 * Audio and the audio track of video: ffmpeg turns it into 16 kHz mono WAV (from a temporary file, since containers
 * like MP4 cannot be read from a pipe), then it is transcribed in chunks no longer than the speech engine accepts,
 * with progress after each and segment timestamps from the chunk's start and the engine's offset.
 */
export async function analyseAudio(
  ai: AiService,
  { open, signal, progress, adaptationText }: AnalyserInput,
): Promise<Result> {
  let ffmpeg: string;
  try {
    ffmpeg = requireExecutable('ffmpeg', 'ffmpeg', 'Audio conversion');
  } catch (error) {
    throw new PermanentJobError((error as Error).message, 'unsupported');
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'atrium-analysis-'));
  let pcm: Buffer;
  try {
    const input = path.join(dir, 'input');
    await pipeline(await open(), createWriteStream(input, { mode: 0o600 }));
    const out = await runPipeline(
      [
        {
          command: ffmpeg,
          args: [
            '-nostdin',
            '-v',
            'error',
            '-i',
            input,
            '-vn',
            '-ac',
            '1',
            '-ar',
            '16000',
            '-t',
            String(MAX_AUDIO_SECONDS),
            '-c:a',
            'pcm_s16le',
            '-f',
            'wav',
            'pipe:1',
          ],
        },
      ],
      { timeoutMs: 10 * 60_000, maxOutputBytes: MAX_AUDIO_SECONDS * 32_000 + 4096, label: 'Audio conversion' },
    ).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'ENGINE_FAILED')
        throw new PermanentJobError(`The audio could not be read: ${(error as Error).message}`);
      throw error;
    });
    pcm = pcmOf(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (pcm.length < 3200) throw new PermanentJobError('The file has no audio to transcribe.');
  // Chunks within the engine's limits (seconds and bytes), at most 30 s so progress moves.
  const chunkSeconds = Math.max(
    5,
    Math.min(30, ai.limits.audioSeconds - 1, Math.floor((ai.limits.audioBytes - 44) / 32_000)),
  );
  const chunkBytes = chunkSeconds * 32_000;
  const total = Math.ceil(pcm.length / chunkBytes);
  const segments: TranscriptSegment[] = [];
  for (let index = 0; index < total; index += 1) {
    signal.throwIfAborted();
    const chunk = pcm.subarray(index * chunkBytes, (index + 1) * chunkBytes);
    if (chunk.length < 3200) break;
    const start = index * chunkSeconds;
    // The same text for every chunk: the engine builds its adapted model once and reuses it.
    const result = await part('Speech to text', [], () =>
      ai.transcribe(wav(chunk), adaptationText ? { adaptationText } : {}),
    );
    if (!result) throw new PermanentJobError('Speech to text is not available on this server.', 'unsupported');
    const text = result.DisplayText.trim();
    if (text && result.RecognitionStatus === 'Success') {
      const from = start + result.Offset / 1e7;
      const to = result.Duration > 0 ? from + result.Duration / 1e7 : start + chunk.length / 32_000;
      segments.push({ start: round2(from), end: round2(to), text });
    }
    await progress((index + 1) / total);
  }
  // Only the local engine adapts (docs/PRODUCT.md#transcripts); the label says so.
  const adapted = adaptationText && ai.status().speechToText.provider === 'local' ? ', adapted to the space' : '';
  return {
    transcript: { text: segments.map((s) => s.text).join(' '), segments },
    engine: `speech to text (${ai.status().speechToText.provider}${adapted}), ffmpeg`,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
