import { z } from 'zod';
import { bytes, documented } from './env';

const optionalUrl = z.url().optional();

/**
 * Answer generation and passage embeddings for "Ask your files" (README, "AI": chat and embedding providers).
 * Nothing is configured by default: then no text leaves the machine and Ask answers extractively.
 */
export const llmEnv = {
  AI_CHAT_BASE_URL: optionalUrl.describe(
    'OpenAI-compatible chat server for generated answers (Ollama `http://host:11434/v1`, LocalAI, llama.cpp’s server…); `/chat/completions` is appended. Unset: no provider (an uploaded model may still be selected)',
  ),
  AI_CHAT_MODEL: z.string().min(1).optional().describe('model name sent to it (required with `AI_CHAT_BASE_URL`)'),
  AI_CHAT_API_KEY: z.string().min(1).optional().describe('its API key (`Authorization: Bearer`), if it needs one'),
  AI_EMBEDDINGS_BASE_URL: optionalUrl.describe(
    'OpenAI-compatible embeddings server for dense retrieval; `/embeddings` is appended. Unset: none (or an uploaded embedding model)',
  ),
  AI_EMBEDDINGS_MODEL: z
    .string()
    .min(1)
    .optional()
    .describe('embedding model name sent to it (required with `AI_EMBEDDINGS_BASE_URL`)'),
  AI_EMBEDDINGS_API_KEY: z.string().min(1).optional().describe('its API key, if it needs one'),
  AI_EMBEDDINGS_DIMENSIONS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('length of its vectors (answers of another length are refused); `0` = learned from its first answer'),
  AI_LLM_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .default(120)
    .describe(
      'longest a generated answer or an embeddings call may take, provider or uploaded model (then 504); a provider that sends nothing for a fifth of it counts as down (503)',
    ),
  AI_MODEL_MAX_BYTES: documented(
    bytes.default(16 * 1024 ** 3),
    'largest GGUF model an admin may upload (413 above it)',
    '16 GiB',
  ),
  AI_MODEL_MEMORY_MB: z.coerce
    .number()
    .int()
    .positive()
    .default(8192)
    .describe(
      'memory (resident set) the process running an uploaded model may use; above it the process is stopped and the answer is a 503',
    ),
  AI_MODEL_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('CPU threads an uploaded model uses; `0` = as many as the machine has'),
};

type LlmEnv = z.infer<z.ZodObject<typeof llmEnv>>;

export interface OpenAiEndpoint {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  /** Embeddings only: the vectors' length, 0 = learned from the first answer. */
  dimensions: number;
}

export interface LlmConfig {
  chat: OpenAiEndpoint | undefined;
  embeddings: OpenAiEndpoint | undefined;
  timeoutMs: number;
  model: { maxBytes: number; memoryBytes: number; threads: number };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function endpointOf(
  what: 'CHAT' | 'EMBEDDINGS',
  baseUrl: string | undefined,
  model: string | undefined,
  apiKey: string | undefined,
  dimensions: number,
  problems: string[],
): OpenAiEndpoint | undefined {
  if (!baseUrl) return undefined;
  if (!model) {
    problems.push(`AI_${what}_MODEL: required with AI_${what}_BASE_URL`);
    return undefined;
  }
  return { baseUrl: trimSlash(baseUrl), model, apiKey, dimensions };
}

/** Resolves the chat and embeddings providers and the uploaded models' limits, listing every missing setting. */
export function resolveLlmConfig(env: LlmEnv, problems: string[]): LlmConfig {
  return {
    chat: endpointOf('CHAT', env.AI_CHAT_BASE_URL, env.AI_CHAT_MODEL, env.AI_CHAT_API_KEY, 0, problems),
    embeddings: endpointOf(
      'EMBEDDINGS',
      env.AI_EMBEDDINGS_BASE_URL,
      env.AI_EMBEDDINGS_MODEL,
      env.AI_EMBEDDINGS_API_KEY,
      env.AI_EMBEDDINGS_DIMENSIONS,
      problems,
    ),
    timeoutMs: Math.round(env.AI_LLM_TIMEOUT_SECONDS * 1000),
    model: {
      maxBytes: env.AI_MODEL_MAX_BYTES,
      memoryBytes: env.AI_MODEL_MEMORY_MB * 1024 * 1024,
      threads: env.AI_MODEL_THREADS,
    },
  };
}
