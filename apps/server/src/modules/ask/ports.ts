import { AppError } from '../../errors';

/**
 * What "Ask your files" needs of a language model, as ports (docs/PRODUCT.md#ask-your-files): the providers live
 * elsewhere (an OpenAI-compatible server, an uploaded GGUF run in-process) and are wired in by the app; null from
 * the module's `generator()` / `embedder()` means none is configured, and Ask answers extractively, lexically.
 */

/** Streams an answer's text, a piece at a time, until done or `signal` aborts. */
export interface AnswerGenerator {
  readonly label: string;
  stream(input: { system: string; prompt: string; signal: AbortSignal; maxTokens: number }): AsyncIterable<string>;
}

/** Turns passages (and questions) into vectors of `dimensions` numbers; `label` names the model. */
export interface PassageEmbedder {
  readonly label: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * What a failing model throws (modules/llm: down, slow or unreadable — 503, 502, 504): Ask then answers from the
 * passages alone, with the full-text ranking (docs/PRODUCT.md#ask-your-files).
 */
export const isModelTrouble = (error: unknown): boolean =>
  error instanceof AppError && ['SERVICE_UNAVAILABLE', 'UPSTREAM_FAILED', 'TIMEOUT'].includes(error.code);
