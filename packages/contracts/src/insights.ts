import { z } from 'zod';
import { endpoint } from './endpoint';
import { FileIdParams } from './files';
import { WorkspaceIdParams } from './workspaces';

/** Where a file's background analysis stands (docs/PRODUCT.md#file-insights). */
export const InsightStatus = z.enum(['pending', 'running', 'done', 'failed', 'unsupported']);
export type InsightStatus = z.infer<typeof InsightStatus>;

/** A box as fractions (0…1) of the image's width and height, so it can be drawn over any rendering of it. */
export const InsightBox = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });
export type InsightBox = z.infer<typeof InsightBox>;

export const TranscriptSegment = z.object({
  start: z.number().describe('seconds from the start of the recording'),
  end: z.number().describe('seconds from the start of the recording'),
  text: z.string(),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

export const FileInsights = z
  .object({
    status: InsightStatus,
    progress: z.number().min(0).max(1).optional().describe('0…1 while the analysis runs'),
    text: z.string().optional().describe('text in the file: OCR of an image, a PDF’s text, a text file'),
    transcript: z.object({ text: z.string(), segments: z.array(TranscriptSegment) }).optional(),
    caption: z.string().optional(),
    tags: z.array(z.string()).optional(),
    objects: z.array(z.object({ name: z.string(), confidence: z.number() })).optional(),
    faces: z
      .array(
        z.object({
          box: InsightBox,
          age: z.number(),
          gender: z.string(),
          emotion: z.string().describe('the strongest of the detected emotions'),
        }),
      )
      .optional(),
    colors: z.object({ dominant: z.array(z.string()), accent: z.string(), blackAndWhite: z.boolean() }).optional(),
    engine: z.string().nullable().describe('what analysed the file (provider, engines and model versions)'),
    analysedAt: z.string().nullable(),
    error: z.string().optional().describe('why the analysis failed or what is not supported'),
  })
  .meta({ id: 'FileInsights' });
export type FileInsights = z.infer<typeof FileInsights>;

/** A workspace's background analysis: everything, everything but faces, or nothing. */
export const AnalysisSetting = z.enum(['on', 'no-faces', 'off']);
export type AnalysisSetting = z.infer<typeof AnalysisSetting>;
export const WorkspaceAnalysisSettings = z
  .object({ analysis: AnalysisSetting })
  .meta({ id: 'WorkspaceAnalysisSettings' });
export type WorkspaceAnalysisSettings = z.infer<typeof WorkspaceAnalysisSettings>;

const CATEGORY_PARENTS: Record<string, string> = {
  abstract: 'Abstract',
  animal: 'Animal',
  building: 'Building',
  dark: 'Dark',
  drink: 'Drink',
  food: 'Food',
  indoor: 'Indoor',
  object: 'Object',
  others: 'Other',
  outdoor: 'Outdoor',
  people: 'People',
  plant: 'Plant',
  sky: 'Sky',
  text: 'Text',
  trans: 'Transport',
};
const CATEGORY_CHILDREN: Record<string, string> = {
  people_portrait: 'Portrait',
  people_group: 'Group of people',
  people_many: 'Crowd',
  people_crowd: 'Crowd',
  trans_car: 'Car',
  trans_bicycle: 'Bicycle',
};

/**
 * The user-facing label of an image-analysis category (Azure Computer Vision's 86-category taxonomy, which the API
 * keeps for compatibility: `indoor_`, `others_`, `animal_dog`, `people_group`…): "Indoor", "Other", "Dog", "Group
 * of people". The one place these names are turned into words.
 */
export function categoryLabel(name: string): string {
  const known = CATEGORY_CHILDREN[name];
  if (known) return known;
  const cut = name.indexOf('_');
  const parent = cut < 0 ? name : name.slice(0, cut);
  const child =
    cut < 0
      ? ''
      : name
          .slice(cut + 1)
          .replace(/_+/g, ' ')
          .trim();
  if (!child) return CATEGORY_PARENTS[parent] ?? (parent ? parent[0]?.toUpperCase() + parent.slice(1) : name);
  return child[0]?.toUpperCase() + child.slice(1);
}

/** The analysis endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const analysisEndpoints = {
  insights: endpoint({
    method: 'GET',
    path: '/api/files/:id/insights',
    params: FileIdParams,
    response: FileInsights,
  }),
  setting: endpoint({
    method: 'GET',
    path: '/api/workspaces/:id/analysis',
    params: WorkspaceIdParams,
    response: WorkspaceAnalysisSettings,
  }),
  changeSetting: endpoint({
    method: 'PUT',
    path: '/api/workspaces/:id/analysis',
    params: WorkspaceIdParams,
    body: WorkspaceAnalysisSettings,
    response: WorkspaceAnalysisSettings,
  }),
} as const;
