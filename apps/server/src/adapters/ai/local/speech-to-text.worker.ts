/**
 * Worker entry: resample with ffmpeg (child process, pipes) and decode with pocketsphinx via koffi.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PocketsphinxDecoder } from './pocketsphinx.js';
import { frameLevels, speechBounds, toAzureResult, type AzureSttResult } from './stt-format.js';
import { requireExecutable, runPipeline } from './system.js';
import { serveWorker } from './worker-runtime.js';

export interface SttWorkerData {
  modelDir: string;
  ffmpegPath: string;
  decoderArgs: string[];
  silenceDbfs: number;
  ffmpegTimeoutMs: number;
}

export interface SttJob {
  /** Sample bytes of the WAV "data" chunk. */
  audio: Uint8Array;
  /** ffmpeg raw input format: s16le, u8, s24le, s32le, f32le, f64le, alaw, mulaw. */
  sampleFormat: string;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  /** ARPA text of a workspace's language model, interpolated with the generic one (stt-language-model.ts). */
  adaptationArpa?: string;
}

serveWorker<SttJob, AzureSttResult, SttWorkerData>(async (data) => {
  const ffmpeg = requireExecutable(data.ffmpegPath, 'ffmpeg', 'Speech-to-text');
  const decoder = new PocketsphinxDecoder({ modelDir: data.modelDir, extraArgs: data.decoderArgs });
  // pocketsphinx reads models from files: one private folder per worker, one file per distinct model.
  const modelFolder = mkdtempSync(path.join(tmpdir(), 'atrium-stt-lm-'));
  const modelFile = (arpa: string): string => {
    const file = path.join(modelFolder, `${createHash('sha256').update(arpa).digest('hex').slice(0, 32)}.arpa`);
    writeFileSync(file, arpa);
    return file;
  };

  return async (job) => {
    let pcm: Uint8Array;
    if (job.sampleFormat === 's16le' && job.sampleRate === 16000 && job.channels === 1) {
      pcm = job.audio;
    } else {
      pcm = await runPipeline(
        [
          {
            command: ffmpeg,
            args: [
              '-hide_banner',
              '-loglevel',
              'error',
              '-f',
              job.sampleFormat,
              '-ar',
              String(job.sampleRate),
              '-ac',
              String(job.channels),
              '-i',
              'pipe:0',
              '-ac',
              '1',
              '-ar',
              '16000',
              '-f',
              's16le',
              '-acodec',
              'pcm_s16le',
              'pipe:1',
            ],
          },
        ],
        {
          input: job.audio,
          timeoutMs: data.ffmpegTimeoutMs,
          maxOutputBytes: Math.ceil(job.durationSeconds + 2) * 32000,
          label: 'Speech-to-text resampling (ffmpeg)',
        },
      );
    }
    // Copy into an aligned buffer: Int16Array needs an even byte offset.
    const samples = new Int16Array(pcm.byteLength >> 1);
    new Uint8Array(samples.buffer).set(pcm.subarray(0, samples.byteLength));
    decoder.useAdaptedModel(job.adaptationArpa ? modelFile(job.adaptationArpa) : null);
    const decoded = decoder.decode(samples);
    const bounds = speechBounds(frameLevels(samples), data.silenceDbfs);
    return { value: toAzureResult(decoded, job.durationSeconds, bounds) };
  };
});
