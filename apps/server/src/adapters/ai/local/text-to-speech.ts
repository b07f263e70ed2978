/**
 * Text-to-speech: text or SSML in, MP3 (16 kHz, 32 kbit/s, mono, US female voice) out —
 * the audio format Azure calls "audio-16khz-32kbitrate-mono-mp3". The voice is festival's HTS voice
 * when Debian's festvox-us-slt-hts is installed, else flite's (docs/PRODUCT.md#local-voices).
 */
import { BadInputError, TooLargeError } from './errors.js';
import { poolLimits, WorkerPool, type EngineState, type PoolLimits } from './pool.js';
import { ssmlToSegments, toFliteText, type SpeechSegment } from './ssml.js';
import type { LocalVoice, TtsJob, TtsWorkerData } from './text-to-speech.worker.js';

export interface SynthesizeInput {
  text?: string;
  ssml?: string;
}

export interface TextToSpeechOptions extends PoolLimits {
  flitePath?: string;
  lamePath?: string;
  /** `festival` (HTS voice), `flite` (voice slt) or `auto` (festival when installed). Default `auto`. */
  voice?: LocalVoice;
  /** Longest accepted text (after SSML is reduced to text). Default 5000 characters. */
  maxChars?: number;
}

export interface TextToSpeechEngine {
  synthesize(input: SynthesizeInput): Promise<Buffer>;
  warmUp(): Promise<void>;
  state(): EngineState;
  close(): Promise<void>;
}

/** Validates the request and returns what the engine will speak, in segments of one rate and pitch. Exported for tests. */
export function prepareSpeech(input: SynthesizeInput, maxChars: number): SpeechSegment[] {
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
  const segments = hasSsml ? ssmlToSegments(raw) : [{ text: raw, rate: 1, pitchCents: 0 }];
  const length = segments.reduce((sum, segment) => sum + segment.text.length, 0);
  if (length > maxChars) {
    throw new TooLargeError(`Text is ${length} characters long; the limit is ${maxChars}`);
  }
  const spoken = segments
    .map((segment) => ({ ...segment, text: toFliteText(segment.text) }))
    .filter((segment) => /[A-Za-z0-9]/.test(segment.text));
  if (spoken.length === 0) throw new BadInputError('Nothing to say: the text has no speakable characters');
  return spoken;
}

export function createTextToSpeech(options: TextToSpeechOptions = {}): TextToSpeechEngine {
  const maxChars = options.maxChars ?? 5000;
  const workerData: TtsWorkerData = {
    flitePath: options.flitePath ?? 'flite',
    lamePath: options.lamePath ?? 'lame',
    voice: options.voice ?? 'auto',
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
      const segments = prepareSpeech(input, maxChars);
      const mp3 = await pool.run({ segments });
      return Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength);
    },
    warmUp: () => pool.warmUp(),
    state: () => pool.state(),
    close: () => pool.close(),
  };
}
