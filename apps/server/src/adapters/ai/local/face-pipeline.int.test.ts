import type * as FaceApiNamespace from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFacePipeline, type FacePipeline, type PipelineFace } from './face-pipeline.js';
import { decodeRgb } from './image-input.js';
import { packageDir, requireCjs } from './packages.js';
import { initTfjsWasm, type Tf } from './tfjs-wasm.js';

type FaceApi = typeof FaceApiNamespace;

let tf: Tf;
let faceapi: FaceApi;
let pipeline: FacePipeline;
const faceApiDir = packageDir('@vladmandic/face-api', 'tests');
const modelDir = path.join(faceApiDir, 'model');
const OPTIONS = { minConfidence: 0.5, maxFaces: 100 };

beforeAll(async () => {
  tf = await initTfjsWasm('tests');
  faceapi = requireCjs(path.join(faceApiDir, 'dist', 'face-api.node-wasm.js')) as FaceApi;
  for (const net of [
    faceapi.nets.ssdMobilenetv1,
    faceapi.nets.faceLandmark68Net,
    faceapi.nets.faceExpressionNet,
    faceapi.nets.ageGenderNet,
  ]) {
    await net.loadFromDisk(modelDir);
  }
  pipeline = await createFacePipeline(tf, faceapi, modelDir, OPTIONS);
  await pipeline.warmUp();
});
afterAll(() => {
  pipeline.dispose();
});

/** face-api's own chain, the reference the pipeline must reproduce. */
async function reference(input: FaceApiNamespace.tf.Tensor3D): Promise<PipelineFace[]> {
  const results = await faceapi
    .detectAllFaces(input, new faceapi.SsdMobilenetv1Options(OPTIONS))
    .withFaceLandmarks()
    .withFaceExpressions()
    .withAgeAndGender();
  return results.map((r) => ({
    box: { x: r.detection.box.x, y: r.detection.box.y, width: r.detection.box.width, height: r.detection.box.height },
    score: r.detection.score,
    age: r.age,
    gender: r.gender === 'male' ? 'male' : 'female',
    expressions: { ...(r.expressions as unknown as Record<string, number>) },
  }));
}

/** A demo photo of face-api's tests, 1024 px wide, as the pipeline's input (the caller disposes of it). */
async function demoPhoto(name: string) {
  const photo = await sharp(path.join(faceApiDir, 'demo', name))
    .resize(1024)
    .jpeg()
    .toBuffer();
  const rgb = await decodeRgb(photo, 1024, 36_000_000);
  return tf.tensor3d(rgb.data, [rgb.height, rgb.width, 3], 'int32');
}

describe('face pipeline (fused SSD, batched per-face networks)', () => {
  it.each(['sample1.jpg', 'sample4.jpg', 'sample5.jpg'])(
    'finds the same faces with the same attributes as face-api in %s',
    { timeout: 60_000 },
    async (name) => {
      const input = await demoPhoto(name);
      try {
        const expected = await reference(input as unknown as FaceApiNamespace.tf.Tensor3D);
        const tensorsBefore = tf.memory().numTensors;
        const actual = await pipeline.detect(input);
        expect(tf.memory().numTensors).toBe(tensorsBefore); // nothing leaks per request
        expect(expected.length).toBeGreaterThanOrEqual(3);
        expect(actual).toHaveLength(expected.length);
        expected.forEach((want, i) => {
          const face = actual[i] as PipelineFace;
          for (const key of ['x', 'y', 'width', 'height'] as const) expect(face.box[key]).toBeCloseTo(want.box[key], 1);
          expect(face.score).toBeCloseTo(want.score, 3);
          expect(face.age).toBeCloseTo(want.age, 1);
          expect(face.gender).toBe(want.gender);
          for (const [expression, p] of Object.entries(want.expressions)) {
            expect(face.expressions[expression]).toBeCloseTo(p, 2);
          }
        });
      } finally {
        input.dispose();
      }
    },
  );

  it('adds 128-number descriptors only when asked, the same faces either way', { timeout: 60_000 }, async () => {
    const input = await demoPhoto('sample1.jpg');
    try {
      const plain = await pipeline.detect(input);
      expect(plain.every((face) => face.descriptor === undefined)).toBe(true);
      await pipeline.detect(input, { descriptors: true }); // loads the recognition network
      const tensorsBefore = tf.memory().numTensors;
      const described = await pipeline.detect(input, { descriptors: true });
      expect(tf.memory().numTensors).toBe(tensorsBefore);
      expect(described.map((face) => face.box)).toEqual(plain.map((face) => face.box));
      for (const face of described) {
        expect(face.descriptor).toHaveLength(128);
        expect(face.descriptor?.every(Number.isFinite)).toBe(true);
      }
      // Three different people: their descriptors are far apart.
      const [a, b] = described;
      const distance = Math.sqrt(
        (a?.descriptor ?? []).reduce((s, v, i) => s + (v - (b?.descriptor?.[i] ?? 0)) ** 2, 0),
      );
      expect(distance).toBeGreaterThan(0.5);
    } finally {
      input.dispose();
    }
  });

  it('finds no face in a blank image and leaves no tensors behind', async () => {
    const blank = tf.zeros([300, 400, 3], 'int32') as Parameters<FacePipeline['detect']>[0];
    const before = tf.memory().numTensors;
    await expect(pipeline.detect(blank)).resolves.toEqual([]);
    expect(tf.memory().numTensors).toBe(before);
    blank.dispose();
  });
});
