/**
 * Worker entry: @vladmandic/face-api (SSD MobileNet v1 + 68-point landmarks + age/gender +
 * expressions) on TensorFlow.js/WASM, through face-pipeline.ts. Weights are read from face-api's
 * model/ folder with fs.
 */
import type * as FaceApiNamespace from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { decodeRgb } from './image-input.js';
import { packageDir, requireCjs } from './packages.js';
import { createFacePipeline } from './face-pipeline.js';
import { initTfjsWasm } from './tfjs-wasm.js';
import { serveWorker } from './worker-runtime.js';
import { toAzureEmotion, type AzureFace } from './face-types.js';

export interface FaceWorkerData {
  /** Longest side used for inference; larger images are shrunk (rectangles are scaled back). */
  inferenceMaxSide: number;
  maxPixels: number;
  minConfidence: number;
  maxFaces: number;
}

export interface FaceJob {
  image: Uint8Array;
  width: number;
  height: number;
  /** Also compute each face's recognition descriptor (People); plain detection leaves it off. */
  descriptors?: boolean;
}

type FaceApi = typeof FaceApiNamespace;
const FEATURE = 'Face detection';

serveWorker<FaceJob, AzureFace[], FaceWorkerData>(async (data) => {
  const tf = await initTfjsWasm(FEATURE);
  const faceApiDir = packageDir('@vladmandic/face-api', FEATURE);
  const faceapi = requireCjs(path.join(faceApiDir, 'dist', 'face-api.node-wasm.js')) as FaceApi;
  const pipeline = await createFacePipeline(tf, faceapi, path.join(faceApiDir, 'model'), {
    minConfidence: data.minConfidence,
    maxFaces: data.maxFaces,
  });

  const detect = async (pixels: Uint8Array | Int32Array, width: number, height: number, descriptors: boolean) => {
    const input = tf.tensor3d(pixels, [height, width, 3], 'int32');
    try {
      return await pipeline.detect(input, { descriptors });
    } finally {
      input.dispose();
    }
  };
  // First inference sets up kernels: do it now so the first request is not slow.
  await pipeline.warmUp();

  return async (job) => {
    const rgb = await decodeRgb(job.image, data.inferenceMaxSide, data.maxPixels);
    const results = await detect(rgb.data, rgb.width, rgb.height, job.descriptors === true);
    const sx = job.width / rgb.width;
    const sy = job.height / rgb.height;
    const faces: AzureFace[] = results.map((r) => {
      const box = r.box;
      const left = Math.max(0, Math.round(box.x * sx));
      const top = Math.max(0, Math.round(box.y * sy));
      const right = Math.min(job.width, Math.round((box.x + box.width) * sx));
      const bottom = Math.min(job.height, Math.round((box.y + box.height) * sy));
      return {
        faceId: randomUUID(),
        faceRectangle: { top, left, width: Math.max(1, right - left), height: Math.max(1, bottom - top) },
        faceAttributes: {
          age: Math.round(r.age * 10) / 10,
          gender: r.gender,
          emotion: toAzureEmotion(r.expressions),
        },
        ...(r.descriptor ? { descriptor: r.descriptor } : {}),
      };
    });
    // Azure lists faces by rectangle size, largest first.
    faces.sort(
      (a, b) => b.faceRectangle.width * b.faceRectangle.height - a.faceRectangle.width * a.faceRectangle.height,
    );
    return { value: faces };
  };
});
