// Face detection in-process, phase by phase: where a photo's time goes (docs/BENCHMARKS.md, "Local AI engines").
// Runs the worker's own code (decode with sharp, face-pipeline.ts on tfjs-wasm) in this thread, no server, and
// reports wall and CPU time (process.cpuUsage: this thread's wasm plus sharp's decode threads) per phase:
// the whole pipeline on the 1024 px photo (3 faces), and the detector alone (the same size, no face to follow up).
//
// Usage: node scripts/run.mjs tsx bench/face-phases.ts [maxSide=1024] [runs=9]
import path from 'node:path';
import sharp from 'sharp';
import type * as FaceApiNamespace from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import { createFacePipeline } from '../apps/server/src/adapters/ai/local/face-pipeline.js';
import { decodeRgb } from '../apps/server/src/adapters/ai/local/image-input.js';
import { packageDir, requireCjs } from '../apps/server/src/adapters/ai/local/packages.js';
import { initTfjsWasm } from '../apps/server/src/adapters/ai/local/tfjs-wasm.js';

const maxSide = Number(process.argv[2] ?? 1024);
const runs = Number(process.argv[3] ?? 9);

const tf = await initTfjsWasm('Face detection');
const faceApiDir = packageDir('@vladmandic/face-api', 'Face detection');
const faceapi = requireCjs(path.join(faceApiDir, 'dist', 'face-api.node-wasm.js')) as typeof FaceApiNamespace;
const pipeline = await createFacePipeline(tf, faceapi, path.join(faceApiDir, 'model'), {
  minConfidence: 0.5,
  maxFaces: 100,
});
await pipeline.warmUp();
// The photo bench/ai-local.mjs sends through the server.
const photo = await sharp(path.join(faceApiDir, 'demo', 'sample1.jpg'))
  .resize(1024)
  .jpeg({ quality: 90 })
  .toBuffer();

const samples: Record<string, number[]> = {};
const record = (name: string, value: number) => (samples[name] ??= []).push(value);
const cpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

let faces = 0;
for (let i = 0; i < runs; i++) {
  let wall = performance.now();
  let cpu = process.cpuUsage();
  const rgb = await decodeRgb(photo, maxSide, 100e6);
  record('decode wall', performance.now() - wall);
  record('decode CPU', cpuSince(cpu));

  wall = performance.now();
  cpu = process.cpuUsage();
  const input = tf.tensor3d(rgb.data, [rgb.height, rgb.width, 3], 'int32');
  faces = (await pipeline.detect(input)).length;
  input.dispose();
  record('pipeline wall', performance.now() - wall);
  record('pipeline CPU', cpuSince(cpu));

  wall = performance.now();
  cpu = process.cpuUsage();
  const blank = tf.zeros([rgb.height, rgb.width, 3], 'int32') as typeof input;
  await pipeline.detect(blank);
  blank.dispose();
  record('detector only wall', performance.now() - wall);
  record('detector only CPU', cpuSince(cpu));
}
pipeline.dispose();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
console.log(`max side ${maxSide}, ${faces} faces, ${runs} runs (median / min, ms):`);
for (const [name, values] of Object.entries(samples)) {
  console.log(`  ${name}: ${median(values).toFixed(0)} / ${Math.min(...values).toFixed(0)}`);
}
