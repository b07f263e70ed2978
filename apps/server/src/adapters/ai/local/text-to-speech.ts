/**
 * Text-to-speech: text or SSML in, MP3 (16 kHz, 32 kbit/s, mono, US female voice) out —
 * the audio format Azure calls "audio-16khz-32kbitrate-mono-mp3".
 */
import { BadInputError, TooLargeError } from './errors.js';
import { poolLimits, WorkerPool, type EngineState, type PoolLimits } from './pool.js';
import { ssmlToText, toFliteText } from './ssml.js';
import type { TtsJob, TtsWorkerData } from './text-to-speech.worker.js';

export interface SynthesizeInput {
  text?: string;
  ssml?: string;
}

export interface TextToSpeechOptions extends PoolLimits {
  flitePath?: string;
  lamePath?: string;
  /** flite voice. Default "slt" (US English, female). */
  voice?: string;
  /** Longest accepted text (after SSML is reduced to text). Default 5000 characters. */
  maxChars?: number;
}

export interface TextToSpeechEngine {
  synthesize(input: SynthesizeInput): Promise<Buffer>;
  warmUp(): Promise<void>;
  state(): EngineState;
  close(): Promise<void>;
}

/** Validates the request and returns the text flite will speak. Exported for tests. */
export function prepareSpeechText(input: SynthesizeInput, maxChars: number): string {
  if (input === null || typeof input !== 'object') throw new BadInputError('Expected { text } or { ssml }');
  const { text, ssml } = input;
  if (text !== undefined && typeof text !== 'string') throw new BadInputError('text must be a string');
  if (ssml !== undefined && typeof ssml !== 'string') throw new BadInputError('ssml must be a string');
  const hasText = typeof text === 'string' && text.trim() !== '';
  const hasSsml = typeof ssml === 'string' && ssml.trim() !== '';
  if (hasText && hasSsml) throw new BadInputError('Give either text or ssml, not both');
  if (!hasText && !hasSsml) throw new BadInputError('Nothing to say: text is blank');
  // Bound the work spent parsing before the length check proper.
  const raw = (hasSsml ? ssml : text) ?? '';
  if (raw.length > maxChars * 10) throw new TooLargeError(`Input is longer than ${maxChars * 10} characters`);
  const plain = hasSsml ? ssmlToText(raw) : raw;
  if (plain.length > maxChars) {
    throw new TooLargeError(`Text is ${plain.length} characters long; the limit is ${maxChars}`);
  }
  const spoken = toFliteText(plain);
  if (!/[A-Za-z0-9]/.test(spoken)) throw new BadInputError('Nothing to say: the text has no speakable characters');
  return spoken;
}

export function createTextToSpeech(options: TextToSpeechOptions = {}): TextToSpeechEngine {
  const maxChars = options.maxChars ?? 5000;
  const workerData: TtsWorkerData = {
    flitePath: options.flitePath ?? 'flite',
    lamePath: options.lamePath ?? 'lame',
    voice: options.voice ?? 'slt',
    bitrateKbps: 32,
    sampleRateKhz: 16,
    pipelineTimeoutMs: (options.timeoutMs ?? 30_000) + 5_000,
  };
  const pool = new WorkerPool<TtsJob, Uint8Array>({
    name: 'Text-to-speech',
    workerUrl: new URL('./text-to-speech.worker.ts', import.meta.url),
    workerData,
    ...poolLimits(options),
  });
  return {
    async synthesize(input: SynthesizeInput): Promise<Buffer> {
      const text = prepareSpeechText(input, maxChars);
      const mp3 = await pool.run({ text });
      return Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength);
    },
    warmUp: () => pool.warmUp(),
    state: () => pool.state(),
    close: () => pool.close(),
  };
}
