import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * AI models (docs/PRODUCT.md#ai-models): GGUF models an admin uploads into Atrium and selects for generated answers
 * (`chat`) or for passage embeddings (`embeddings`), run in-process on the server's CPU; and what the configured
 * OpenAI-compatible providers are. Admins only.
 */
export const AI_MODEL_ROLES = ['chat', 'embeddings'] as const;
export const AiModelRole = z.enum(AI_MODEL_ROLES);
export type AiModelRole = z.infer<typeof AiModelRole>;

export const AiModelRecord = z
  .object({
    id: z.string(),
    name: z.string().describe('The uploaded file’s name'),
    sizeBytes: z.number().int(),
    architecture: z.string().describe('From the GGUF metadata, e.g. `llama`, `qwen2`'),
    embeddingLength: z.number().int().nullable(),
    contextLength: z.number().int().nullable(),
    role: AiModelRole.nullable().describe('What it is selected for; null: not in use'),
    uploadedAt: z.string().describe('ISO-8601'),
    uploadedBy: z.string().nullable().describe('Owner key of the admin who uploaded it'),
  })
  .meta({ id: 'AiModelRecord' });
export type AiModelRecord = z.infer<typeof AiModelRecord>;

const Source = z
  .object({
    kind: z.enum(['provider', 'model', 'none']),
    label: z.string().nullable().describe('The provider’s model and host, or the uploaded model’s name'),
  })
  .describe('What answers: a configured provider (AI_CHAT_* / AI_EMBEDDINGS_*, which wins), a selected model, none');

export const AiModelList = z
  .object({
    models: z.array(AiModelRecord),
    chat: Source,
    embeddings: Source,
    maxUploadBytes: z.number().int(),
  })
  .meta({ id: 'AiModelList' });
export type AiModelList = z.infer<typeof AiModelList>;

export const AiModelIdParams = z.object({ id: z.string().min(1).max(100) });

export const SelectAiModelRequest = z
  .strictObject({ role: AiModelRole.nullable().describe('null: no longer in use') })
  .meta({ id: 'SelectAiModelRequest' });
export type SelectAiModelRequest = z.infer<typeof SelectAiModelRequest>;

/** What the AI models screen and the API say. */
export const AI_MODEL_TEXTS = {
  notFound: 'There is no such model.',
  notGguf: 'This is not a GGUF model file.',
  tooLarge: 'The model is larger than this server accepts.',
  empty: 'No models uploaded yet.',
  deleteConfirm: 'Delete this model? Answers that use it fall back to the extractive answer.',
} as const;

/** The AI model endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const aiModelsEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/admin/ai/models', response: AiModelList }),
  /** Multipart, one field `file` (a .gguf), streamed to the data folder. */
  upload: endpoint({ method: 'POST', path: '/api/admin/ai/models', response: AiModelRecord, status: 201 }),
  select: endpoint({
    method: 'PUT',
    path: '/api/admin/ai/models/:id/role',
    params: AiModelIdParams,
    body: SelectAiModelRequest,
    response: AiModelRecord,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/admin/ai/models/:id',
    params: AiModelIdParams,
    response: AiModelRecord,
  }),
} as const;
