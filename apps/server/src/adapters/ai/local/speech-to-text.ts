/**
 * Speech-to-text: WAV in, Azure short-audio REST response out.
 * Validation runs on the caller's thread (cheap, rejects early); resampling and decoding run in a worker.
 */
import { BadMediaError } from './errors.js';
import { poolLimits, WorkerPool, type EngineState, type PoolLimits } from './pool.js';
import type { SttJob, SttWorkerData } from './speech-to-text.worker.js';
import type { AzureSttResult } from './stt-format.js';
import { buildArpa } from './stt-language-model.js';
import { parseWav, type WavInfo } from './wav.js';

export type { AzureSttResult } from './stt-format.js';

export interface SpeechToTextOptions extends PoolLimits {
  /** pocketsphinx-en-us model folder. Default /usr/share/pocketsphinx/model/en-us. */
  modelDir?: string;
  /** ffmpeg program (name on PATH or absolute path). Default "ffmpeg". */
  ffmpegPath?: string;
  /** Longest accepted recording. Default 60 s (Azure short-audio limit). */
  maxSeconds?: number;
  /** Largest accepted WAV file. Default 32 MiB. */
  maxBytes?: number;
  /** Extra pocketsphinx arguments; they override DEFAULT_DECODER_ARGS (pocketsphinx.ts), e.g. ['-maxhmmpf', '30000']. */
  decoderArgs?: string[];
  /** Audio whose loudest 10 ms frame is below this is silence. Default -50 dBFS. */
  silenceDbfs?: number;
}

export interface TranscribeOptions {
  /**
   * A workspace's own text: transcripts favour its words and word pairs (a bigram model of it is
   * interpolated with the generic en-us model; words missing from the pronunciation dictionary are ignored).
   */
  adaptationText?: string;
}

export interface SpeechToTextEngine {
  transcribe(wav: Buffer | Uint8Array, options?: TranscribeOptions): Promise<AzureSttResult>;
  warmUp(): Promise<void>;
  state(): EngineState;
  close(): Promise<void>;
}

function ffmpegSampleFormat(info: WavInfo): string {
  switch (info.format) {
    case 1:
      return info.bitsPerSample === 8 ? 'u8' : `s${info.bitsPerSample}le`;
    case 3:
      return info.bitsPerSample === 64 ? 'f64le' : 'f32le';
    case 6:
      return 'alaw';
    case 7:
      return 'mulaw';
  }
}

export function createSpeechToText(options: SpeechToTextOptions = {}): SpeechToTextEngine {
  const maxSeconds = options.maxSeconds ?? 60;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const workerData: SttWorkerData = {
    modelDir: options.modelDir ?? '/usr/share/pocketsphinx/model/en-us',
    ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
    decoderArgs: options.decoderArgs ?? [],
    silenceDbfs: options.silenceDbfs ?? -50,
    ffmpegTimeoutMs: 30_000,
  };
  const pool = new WorkerPool<SttJob, AzureSttResult>({
    name: 'Speech-to-text',
    workerUrl: new URL('./speech-to-text.worker.ts', import.meta.url),
    workerData,
    ...poolLimits(options, 60_000),
  });

  // The chunks of one recording come with the same text (docs/PRODUCT.md#transcripts): its model is built once, and
  // the worker keeps the decoder's adapted model by the model's hash.
  let lastAdaptation: { text: string; arpa: string | undefined } | undefined;
  const arpaOf = (text: string) => {
    if (lastAdaptation?.text !== text) lastAdaptation = { text, arpa: buildArpa(text) ?? undefined };
    return lastAdaptation.arpa;
  };

  return {
    async transcribe(wav: Buffer | Uint8Array, transcribeOptions: TranscribeOptions = {}): Promise<AzureSttResult> {
      if (!((wav as unknown) instanceof Uint8Array)) throw new BadMediaError('Audio must be a Buffer');
      const buf = Buffer.isBuffer(wav) ? wav : Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
      const info = parseWav(buf, { maxSeconds, maxBytes });
      // A private copy whose ArrayBuffer can be transferred (the caller's Buffer may share a pool).
      const audio = new Uint8Array(buf.subarray(info.dataOffset, info.dataOffset + info.dataLength));
      return pool.run(
        {
          audio,
          sampleFormat: ffmpegSampleFormat(info),
          sampleRate: info.sampleRate,
          channels: info.channels,
          durationSeconds: info.durationSeconds,
          adaptationArpa: transcribeOptions.adaptationText ? arpaOf(transcribeOptions.adaptationText) : undefined,
        },
        { transfer: [audio.buffer] },
      );
    },
    warmUp: () => pool.warmUp(),
    state: () => pool.state(),
    close: () => pool.close(),
  };
}
