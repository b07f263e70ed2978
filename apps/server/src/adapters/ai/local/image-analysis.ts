/**
 * Image analysis (categories, description, colour) in the Computer Vision v3.2 analyze shape.
 */
import type { AnalysisJob, AnalysisWorkerData } from './image-analysis.worker.js';
import type { AnalyzeV32 } from './image-analysis-types.js';
import { inspectImage, type ImageFormat } from './image-input.js';
import { poolLimits, WorkerPool, type EngineState, type PoolLimits } from './pool.js';

export type { AnalyzeV32 } from './image-analysis-types.js';

export interface ImageAnalysisOptions extends PoolLimits {
  /** Largest accepted file. Default 4 MB (Azure v3.2's limit). */
  maxBytes?: number;
  /** Largest accepted width × height. Default 36 megapixels. */
  maxPixels?: number;
  /** Detector score below which an object is ignored. Default 0.3. */
  minConfidence?: number;
  /** Most objects considered. Default 20. */
  maxObjects?: number;
}

export interface ImageAnalysisEngine {
  analyzeImage(image: Buffer | Uint8Array): Promise<AnalyzeV32>;
  warmUp(): Promise<void>;
  state(): EngineState;
  close(): Promise<void>;
}

const ACCEPTED: readonly ImageFormat[] = ['jpeg', 'png', 'gif', 'webp'];

export function createImageAnalysis(options: ImageAnalysisOptions = {}): ImageAnalysisEngine {
  const limits = { maxBytes: options.maxBytes ?? 4 * 1024 * 1024, maxPixels: options.maxPixels ?? 36_000_000 };
  const workerData: AnalysisWorkerData = {
    maxPixels: limits.maxPixels,
    minConfidence: options.minConfidence ?? 0.3,
    maxObjects: options.maxObjects ?? 20,
  };
  const pool = new WorkerPool<AnalysisJob, AnalyzeV32>({
    name: 'Image analysis',
    workerUrl: new URL('./image-analysis.worker.ts', import.meta.url),
    workerData,
    ...poolLimits(options),
  });
  return {
    async analyzeImage(image: Buffer | Uint8Array): Promise<AnalyzeV32> {
      const info = await inspectImage(image, ACCEPTED, limits, 'Image analysis');
      const copy = new Uint8Array(image);
      return pool.run(
        { image: copy, format: info.format, width: info.width, height: info.height },
        { transfer: [copy.buffer] },
      );
    },
    warmUp: () => pool.warmUp(),
    state: () => pool.state(),
    close: () => pool.close(),
  };
}
