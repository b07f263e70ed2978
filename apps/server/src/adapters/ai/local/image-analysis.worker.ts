/**
 * Worker entry: CenterNet (MobileNetV3, COCO 80 classes) from @vladmandic/human's models/ folder,
 * run with TensorFlow.js/WASM and loaded through a file:// tf.io router; colours from a sharp thumbnail.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { analyzeColors } from './colors.js';
import { COCO_LABELS, buildCaption, toCategories, type Detection } from './coco.js';
import { EngineUnavailableError } from './errors.js';
import { decodeRgb, type ImageFormat } from './image-input.js';
import type { AnalyzeV32 } from './image-analysis-types.js';
import { packageFile } from './packages.js';
import { initTfjsWasm } from './tfjs-wasm.js';
import { serveWorker } from './worker-runtime.js';

export interface AnalysisWorkerData {
  maxPixels: number;
  minConfidence: number;
  maxObjects: number;
}

export interface AnalysisJob {
  image: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
}

const FEATURE = 'Image analysis';
const INPUT = 512;
const FORMAT_NAMES: Partial<Record<ImageFormat, string>> = { jpeg: 'Jpeg', png: 'Png', gif: 'Gif', webp: 'Webp' };

function iou(a: Detection['box'], b: Detection['box']): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy per-class non-maximum suppression. */
function suppress(detections: Detection[], threshold: number, max: number): Detection[] {
  const kept: Detection[] = [];
  for (const d of [...detections].sort((a, b) => b.score - a.score)) {
    if (kept.length >= max) break;
    if (kept.some((k) => k.label === d.label && iou(k.box, d.box) > threshold)) continue;
    kept.push(d);
  }
  return kept;
}

serveWorker<AnalysisJob, AnalyzeV32, AnalysisWorkerData>(async (data) => {
  const tf = await initTfjsWasm(FEATURE);
  const modelFile = packageFile('@vladmandic/human', 'models/centernet.json', FEATURE);
  const model = await tf.loadGraphModel(pathToFileURL(modelFile).href);
  const outputName = 'tower_0/detections';
  if (!model.outputs.some((o) => o.name === outputName)) {
    throw new EngineUnavailableError(`${FEATURE}: ${path.basename(modelFile)} has no ${outputName} output`);
  }

  const detect = async (pixels: Float32Array): Promise<number[][]> => {
    const input = tf.tensor4d(pixels, [1, INPUT, INPUT, 3], 'float32');
    const out = model.execute(input, outputName) as ReturnType<typeof tf.tensor>;
    try {
      const rows = (await out.array()) as number[][][];
      return rows[0] ?? [];
    } finally {
      input.dispose();
      out.dispose();
    }
  };
  // First inference compiles kernels.
  await detect(new Float32Array(INPUT * INPUT * 3));

  return async (job) => {
    const rgb = await decodeRgb(job.image, 1024, data.maxPixels);
    const raw = { raw: { width: rgb.width, height: rgb.height, channels: 3 as const } };
    const [modelInput, thumb] = await Promise.all([
      sharp(rgb.data, raw).resize(INPUT, INPUT, { fit: 'fill' }).raw().toBuffer(),
      sharp(rgb.data, raw).resize(100, 100, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true }),
    ]);
    const floats = new Float32Array(modelInput.length);
    for (let i = 0; i < modelInput.length; i++) floats[i] = modelInput[i] ?? 0;
    const rows = await detect(floats);
    // Each row: x1, y1, x2, y2 (model input pixels), score, class index.
    const sx = job.width / INPUT;
    const sy = job.height / INPUT;
    const candidates: Detection[] = [];
    for (const [x1, y1, x2, y2, score, cls] of rows) {
      if (score === undefined || cls === undefined || !Number.isFinite(cls) || score < data.minConfidence) continue;
      const label = COCO_LABELS[Math.round(cls)];
      if (!label || x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) continue;
      const x = Math.max(0, x1 * sx);
      const y = Math.max(0, y1 * sy);
      const box = { x, y, width: Math.min(job.width, x2 * sx) - x, height: Math.min(job.height, y2 * sy) - y };
      if (box.width <= 0 || box.height <= 0) continue;
      candidates.push({ label, score, box });
    }
    const detections = suppress(candidates, 0.5, data.maxObjects);
    const colors = analyzeColors(thumb.data, thumb.info.width, thumb.info.height);
    const caption = buildCaption(detections, { isBW: colors.isBWImg, shares: colors.shares });
    const tags = [...new Set(detections.map((d) => d.label))];
    const { shares: _shares, ...color } = colors;
    const result: AnalyzeV32 = {
      categories: toCategories(detections, job.width * job.height),
      description: { tags, captions: [caption] },
      color,
      requestId: randomUUID(),
      metadata: { width: job.width, height: job.height, format: FORMAT_NAMES[job.format] ?? job.format },
    };
    if (result.categories.length === 0) result.categories.push({ name: 'others_', score: 0.0039 });
    return { value: result };
  };
});
