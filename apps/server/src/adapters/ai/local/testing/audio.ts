/** Test fixture helpers: flite speech and WAV files generated on the fly (temp dir, removed after). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function makeWav(samples: Int16Array, sampleRate: number, channels = 1): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export class AudioFixtures {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'ai-local-test-'));
  private n = 0;

  /** flite voice slt → 16 kHz mono WAV file; returns its path. */
  speak(text: string): string {
    const file = path.join(this.dir, `speech-${this.n++}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', file]);
    return file;
  }

  /** Runs sox with arbitrary arguments where OUT is replaced by an output path. */
  sox(args: string[]): Buffer {
    const out = path.join(this.dir, `sox-${this.n++}.wav`);
    execFileSync(
      'sox',
      args.map((a) => (a === 'OUT' ? out : a)),
    );
    return readFileSync(out);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
