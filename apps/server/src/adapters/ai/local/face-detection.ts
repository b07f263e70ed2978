/**
 * Face detection with age, gender and emotion, in the Azure Face v1.0 detect shape.
 */
import { inspectImage, type ImageFormat } from './image-input.js';
import { poolLimits, WorkerPool, type EngineState, type PoolLimits } from './pool.js';
import type { AzureFace } from './face-types.js';
import type { FaceJob, FaceWorkerData } from './face-detection.worker.js';

export type { AzureFace } from './face-types.js';

export interface FaceDetectionOptions extends PoolLimits {
  /** Largest accepted file. Default 6 MB (Azure's limit). */
  maxBytes?: number;
  /** Largest accepted width × height. Default 36 megapixels. */
  maxPixels?: number;
  /** Longest image side used for inference. Default 1024. */
  inferenceMaxSide?: number;
  /** Detector score threshold. Default 0.5. */
  minConfidence?: number;
  /** Most faces returned. Default 100 (Azure's limit). */
  maxFaces?: number;
}

export interface FaceDetectionEngine {
  /** `descriptors`: each face also gets its 128-number recognition descriptor (People; slower, asked per call). */
  detectFaces(image: Buffer | Uint8Array, options?: { descriptors?: boolean }): Promise<AzureFace[]>;
  warmUp(): Promise<void>;
  state(): EngineState;
  close(): Promise<void>;
}

const ACCEPTED: readonly ImageFormat[] = ['jpeg', 'png'];

export function createFaceDetection(options: FaceDetectionOptions = {}): FaceDetectionEngine {
  const limits = { maxBytes: options.maxBytes ?? 6 * 1024 * 1024, maxPixels: options.maxPixels ?? 36_000_000 };
  const workerData: FaceWorkerData = {
    inferenceMaxSide: options.inferenceMaxSide ?? 1024,
    maxPixels: limits.maxPixels,
    minConfidence: options.minConfidence ?? 0.5,
    maxFaces: options.maxFaces ?? 100,
  };
  const pool = new WorkerPool<FaceJob, AzureFace[]>({
    name: 'Face detection',
    workerUrl: new URL('./face-detection.worker.ts', import.meta.url),
    workerData,
    ...poolLimits(options),
  });
  return {
    async detectFaces(image: Buffer | Uint8Array, options: { descriptors?: boolean } = {}): Promise<AzureFace[]> {
      const info = await inspectImage(image, ACCEPTED, limits, 'Face detection');
      const copy = new Uint8Array(image);
      const job: FaceJob = { image: copy, width: info.width, height: info.height };
      if (options.descriptors) job.descriptors = true;
      return pool.run(job, { transfer: [copy.buffer] });
    },
    warmUp: () => pool.warmUp(),
    state: () => pool.state(),
    close: () => pool.close(),
  };
}
