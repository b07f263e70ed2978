/**
 * Worker entry: each segment is spoken by festival (HTS voice cmu_us_slt_arctic_hts) or flite (voice slt) as raw
 * 16 kHz PCM, sox changes its tempo and pitch when the SSML asked for it, and lame encodes the whole to MP3
 * 16 kHz 32 kbit/s mono (docs/PRODUCT.md#local-voices).
 */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { EngineFailedError, EngineUnavailableError } from './errors.js';
import type { SpeechSegment } from './ssml.js';
import { findExecutable, requireExecutable, runPipeline } from './system.js';
import { serveWorker } from './worker-runtime.js';

export type LocalVoice = 'auto' | 'festival' | 'flite';

export interface TtsWorkerData {
  flitePath: string;
  lamePath: string;
  voice: LocalVoice;
  bitrateKbps: number;
  sampleRateKhz: number;
  pipelineTimeoutMs: number;
}

export interface TtsJob {
  /** Already cleaned, ASCII, non-empty text, each with its rate and pitch. */
  segments: SpeechSegment[];
}

/** Debian's festvox-us-slt-hts: the same speaker as flite's slt, as a statistical (HTS) voice. */
const FESTIVAL_VOICE_DIR = '/usr/share/festival/voices/us/cmu_us_slt_arctic_hts';
const FESTIVAL_VOICE = '(voice_cmu_us_slt_arctic_hts)';
const PCM = ['-r', '16000', '-e', 'signed', '-b', '16', '-c', '1'];
const MAX_PCM_BYTES = 64 * 1024 * 1024;

interface Speaker {
  /** A shell script: "$1" is the text; it writes raw PCM, 16 kHz, 16 bit, mono to stdout. */
  script: string;
  programs: string[];
}

/** festival when asked for (or on auto when its voice is installed), else flite. */
function chooseSpeaker(data: TtsWorkerData): Speaker {
  const festival = findExecutable('text2wave');
  const festivalReady = festival !== undefined && existsSync(FESTIVAL_VOICE_DIR);
  if (data.voice === 'festival' && !festivalReady) {
    throw new EngineUnavailableError(
      'Text-to-speech needs the Debian packages festival and festvox-us-slt-hts for AI_LOCAL_VOICE=festival: apt-get install festival festvox-us-slt-hts',
    );
  }
  if (data.voice !== 'flite' && festivalReady) {
    // text2wave reads the text from stdin and writes raw samples at the rate asked for; like flite it cannot open
    // /dev/stdout on the socket pair Node gives a child, so cat carries its output over a real pipe.
    return {
      script: `printf '%s' "$1" | "$2" -eval '${FESTIVAL_VOICE}' -otype raw -F 16000 -o /dev/stdout | cat`,
      programs: [festival],
    };
  }
  const flite = requireExecutable(data.flitePath, 'flite', 'Text-to-speech');
  const voices = execFileSync(flite, ['-lv'], { encoding: 'utf8', timeout: 10_000 });
  if (!voices.split(/\s+/).includes('slt')) {
    throw new EngineUnavailableError(`Text-to-speech: flite has no voice "slt" (${voices.trim()})`);
  }
  // flite can only write its WAV to a named file: "-o /dev/stdout" fails on the socket pairs Node uses for child
  // stdio (and flite still exits 0), so the shell puts a real pipe between flite and sox.
  const sox = requireExecutable('sox', 'sox', 'Text-to-speech');
  return {
    script: `"$2" -voice slt -t "$1" -o /dev/stdout | "$3" -q -t wav - -t raw ${PCM.join(' ')} -`,
    programs: [flite, sox],
  };
}

serveWorker<TtsJob, Uint8Array, TtsWorkerData>(async (data) => {
  const speaker = chooseSpeaker(data);
  const lame = requireExecutable(data.lamePath, 'lame', 'Text-to-speech');
  const sox = requireExecutable('sox', 'sox', 'Text-to-speech');
  const shell = requireExecutable('/bin/sh', 'dash', 'Text-to-speech');
  const options = (label: string, maxOutputBytes: number) => ({
    timeoutMs: data.pipelineTimeoutMs,
    maxOutputBytes,
    label: `Text-to-speech (${label})`,
  });

  /** One segment → raw PCM. Nothing is interpolated into the script: programs and text are positional parameters. */
  const speak = async (segment: SpeechSegment): Promise<Buffer> => {
    const pcm = await runPipeline(
      [{ command: shell, args: ['-c', speaker.script, 'tts', segment.text, ...speaker.programs] }],
      options('speech', MAX_PCM_BYTES),
    );
    if (segment.rate === 1 && segment.pitchCents === 0) return pcm;
    const effects = [
      ...(segment.rate === 1 ? [] : ['tempo', '-s', String(segment.rate)]),
      ...(segment.pitchCents === 0 ? [] : ['pitch', String(segment.pitchCents)]),
    ];
    return runPipeline(
      [{ command: sox, args: ['-q', '-t', 'raw', ...PCM, '-', '-t', 'raw', ...PCM, '-', ...effects] }],
      { ...options('sox', MAX_PCM_BYTES), input: pcm },
    );
  };

  return async (job) => {
    const pcm: Buffer[] = [];
    for (const segment of job.segments) pcm.push(await speak(segment));
    const raw = Buffer.concat(pcm);
    if (raw.length === 0) throw new EngineFailedError('Text-to-speech produced no audio');
    const mp3 = await runPipeline(
      [
        {
          command: lame,
          args: [
            '--quiet',
            '-r',
            '-s',
            '16',
            '--bitwidth',
            '16',
            '--signed',
            '--little-endian',
            '-m',
            'm',
            '-b',
            String(data.bitrateKbps),
            '--cbr',
            '--resample',
            String(data.sampleRateKhz),
            '-',
            '-',
          ],
        },
      ],
      { ...options('lame', 16 * 1024 * 1024), input: raw },
    );
    if (mp3.length === 0) throw new EngineFailedError('Text-to-speech: lame produced no audio');
    const out = new Uint8Array(mp3.buffer, mp3.byteOffset, mp3.byteLength);
    const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
    return { value: own, transfer: [own.buffer as ArrayBuffer] };
  };
});
