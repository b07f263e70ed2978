import type { ColorResult } from './colors.js';
import type { Category, Caption } from './coco.js';

/** Computer Vision v3.2 analyze response for visualFeatures=Categories,Description,Color. */
export interface AnalyzeV32 {
  categories: Category[];
  description: { tags: string[]; captions: Caption[] };
  color: ColorResult;
  requestId: string;
  metadata: { width: number; height: number; format: string };
}
