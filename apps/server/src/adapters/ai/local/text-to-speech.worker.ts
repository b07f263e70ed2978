/**
 * Worker entry: flite (voice slt, US female) → WAV on a pipe → lame → MP3 16 kHz 32 kbit/s mono.
 */
import { execFileSync } from 'node:child_process';
import { EngineFailedError, EngineUnavailableError } from './errors.js';
import { requireExecutable, runPipeline } from './system.js';
import { serveWorker } from './worker-runtime.js';

export interface TtsWorkerData {
  flitePath: string;
  lamePath: string;
  voice: string;
  bitrateKbps: number;
  sampleRateKhz: number;
  pipelineTimeoutMs: number;
}

export interface TtsJob {
  /** Already cleaned, ASCII, non-empty text. */
  text: string;
}

serveWorker<TtsJob, Uint8Array, TtsWorkerData>(async (data) => {
  const flite = requireExecutable(data.flitePath, 'flite', 'Text-to-speech');
  const lame = requireExecutable(data.lamePath, 'lame', 'Text-to-speech');
  const shell = requireExecutable('/bin/sh', 'dash', 'Text-to-speech');
  const voices = execFileSync(flite, ['-lv'], { encoding: 'utf8', timeout: 10_000 });
  if (!voices.split(/\s+/).includes(data.voice)) {
    throw new EngineUnavailableError(`Text-to-speech: flite has no voice "${data.voice}" (${voices.trim()})`);
  }

  return async (job) => {
    // flite can only write its WAV to a named file: "-o /dev/stdout" fails on the socket pairs Node
    // uses for child stdio (and flite still exits 0), and "-f /dev/stdin" hangs when both ends are
    // pipes. So /bin/sh joins flite and lame with a real pipe. Nothing is interpolated into the
    // script: programs, voice and text are positional parameters.
    const script = '"$0" -voice "$1" -t "$2" -o /dev/stdout | "$3" --quiet -b "$4" --cbr -m m --resample "$5" - -';
    const mp3 = await runPipeline(
      [
        {
          command: shell,
          args: ['-c', script, flite, data.voice, job.text, lame, String(data.bitrateKbps), String(data.sampleRateKhz)],
        },
      ],
      {
        timeoutMs: data.pipelineTimeoutMs,
        maxOutputBytes: 16 * 1024 * 1024,
        label: 'Text-to-speech (flite | lame)',
      },
    );
    if (mp3.length === 0) throw new EngineFailedError('Text-to-speech: flite | lame produced no audio');
    const out = new Uint8Array(mp3.buffer, mp3.byteOffset, mp3.byteLength);
    const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
    return { value: own, transfer: [own.buffer as ArrayBuffer] };
  };
});
