/**
 * Pure helpers that turn a pocketsphinx result into the Azure short-audio REST response.
 */
import type { Decoded } from './pocketsphinx.js';

export type RecognitionStatus = 'Success' | 'NoMatch' | 'InitialSilenceTimeout';

/** Azure Speech short-audio REST response (format=simple). Offset/Duration are 100-ns ticks. */
export interface AzureSttResult {
  RecognitionStatus: RecognitionStatus;
  DisplayText: string;
  Offset: number;
  Duration: number;
}

/** One pocketsphinx frame is 10 ms = 100 000 ticks of 100 ns. */
export const TICKS_PER_FRAME = 100_000;
export const TICKS_PER_SECOND = 10_000_000;

/** "hello world i am here" → "Hello world I am here." */
export function toDisplayText(hypothesis: string): string {
  const words = hypothesis
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => (/^i('(m|ll|ve|d))?$/.test(w) ? `I${w.slice(1)}` : w));
  if (words.length === 0) return '';
  let text = words.join(' ');
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Level of each 10 ms frame (160 samples at 16 kHz) in dBFS. */
export function frameLevels(samples: Int16Array): Float64Array {
  const frames = Math.ceil(samples.length / 160);
  const out = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    const start = f * 160;
    const end = Math.min(samples.length, start + 160);
    let sum = 0;
    for (let i = start; i < end; i++) sum += (samples[i] ?? 0) ** 2;
    const rms = Math.sqrt(sum / Math.max(1, end - start));
    out[f] = rms === 0 ? -Infinity : 20 * Math.log10(rms / 32768);
  }
  return out;
}

export interface SpeechBounds {
  /** First and last 10 ms frame of sound, and the loudest frame's level. */
  first: number;
  last: number;
  peakDbfs: number;
}

/**
 * Where the sound is: first and last run of 3 frames louder than both `silenceDbfs` and
 * (peak − 35 dB). pocketsphinx's word times cannot be used for this (see pocketsphinx.ts).
 */
export function speechBounds(levels: Float64Array, silenceDbfs: number): SpeechBounds | undefined {
  let peak = -Infinity;
  for (const l of levels) if (l > peak) peak = l;
  if (!(peak >= silenceDbfs)) return undefined;
  const threshold = Math.max(silenceDbfs, peak - 35);
  const loud = (f: number): boolean => (levels[f] ?? -Infinity) >= threshold;
  const run = (f: number, dir: 1 | -1): boolean => loud(f) && loud(f + dir) && loud(f + 2 * dir);
  let first = 0;
  while (first < levels.length && !run(first, 1)) first++;
  let last = levels.length - 1;
  while (last >= 0 && !run(last, -1)) last--;
  if (first >= levels.length || last < first) {
    // Only short clicks: fall back to the loudest frame.
    const at = levels.indexOf(peak);
    return { first: at, last: at, peakDbfs: peak };
  }
  return { first, last, peakDbfs: peak };
}

/**
 * - words found → Success; Offset/Duration = start and length of the sound in the recording;
 * - no words and nothing louder than the silence threshold → InitialSilenceTimeout,
 *   Offset = length of the audio, Duration 0 (the whole recording was silence);
 * - no words but sound → NoMatch, Offset/Duration = where the sound is.
 */
export function toAzureResult(
  decoded: Decoded,
  audioSeconds: number,
  bounds: SpeechBounds | undefined,
): AzureSttResult {
  const audioTicks = Math.round(audioSeconds * TICKS_PER_SECOND);
  const text = toDisplayText(decoded.hypothesis);
  if (!bounds) {
    if (text) return { RecognitionStatus: 'Success', DisplayText: text, Offset: 0, Duration: audioTicks };
    return { RecognitionStatus: 'InitialSilenceTimeout', DisplayText: '', Offset: audioTicks, Duration: 0 };
  }
  const offset = Math.min(audioTicks, bounds.first * TICKS_PER_FRAME);
  const duration = Math.max(0, Math.min(audioTicks - offset, (bounds.last + 1 - bounds.first) * TICKS_PER_FRAME));
  return { RecognitionStatus: text ? 'Success' : 'NoMatch', DisplayText: text, Offset: offset, Duration: duration };
}
