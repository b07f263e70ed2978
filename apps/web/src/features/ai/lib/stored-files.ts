import type { FileRecord } from '@atrium/contracts';
import type { AiInput } from '../api/ai-api';

/** The name of an input's file ("team.jpg", "recording.wav"). */
export const inputName = (input: AiInput) => (input.kind === 'stored' ? input.file.fileName : input.name);

/** What the speech-to-text service reads: WAV only (the server parses the RIFF header; it converts nothing). */
export const isWavRecord = (file: Pick<FileRecord, 'contentType' | 'fileName'>) =>
  /^audio\/(wav|x-wav|wave|vnd\.wave)$/i.test(file.contentType) || /\.wav$/i.test(file.fileName);

/** What the image services read: PNG and JPEG. */
export const isImageRecord = (file: Pick<FileRecord, 'contentType' | 'fileName'>) =>
  /^image\/(png|jpeg|jpg)$/i.test(file.contentType) ||
  (/^(application\/octet-stream)?$/.test(file.contentType) && /\.(png|jpe?g)$/i.test(file.fileName));

/** A file name without its extension ("meeting.wav" → "meeting"); `fallback` for a name that is only an extension. */
export const baseName = (name: string, fallback: string) => {
  const dot = name.lastIndexOf('.');
  const base = (dot > 0 ? name.slice(0, dot) : name).trim();
  return base || fallback;
};

/** The extension of an audio answer's real type (the TTS route answers audio/mpeg today). */
export const audioExtension = (type: string) => {
  const subtype = type.split(';')[0]?.trim().toLowerCase() ?? '';
  const known: Record<string, string> = {
    'audio/mpeg': 'mp3',
    'audio/mp3': 'mp3',
    'audio/wav': 'wav',
    'audio/x-wav': 'wav',
    'audio/wave': 'wav',
    'audio/ogg': 'ogg',
    'audio/opus': 'opus',
    'audio/webm': 'webm',
    'audio/aac': 'aac',
    'audio/mp4': 'm4a',
    'audio/flac': 'flac',
  };
  return known[subtype] ?? 'mp3';
};

/** A result as a file to store: its bytes, name and type. */
export const textFile = (text: string, name: string) => new File([text], name, { type: 'text/plain;charset=utf-8' });
export const jsonFile = (value: unknown, name: string) =>
  new File([`${JSON.stringify(value, null, 2)}\n`], name, { type: 'application/json' });
