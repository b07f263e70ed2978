/**
 * OpenAI-compatible chat and embeddings providers (Ollama, LocalAI, llama.cpp's server, vLLM, OpenAI):
 * `POST {base}/chat/completions` with `stream: true` (server-sent events, one `data:` JSON chunk per line, ended by
 * `data: [DONE]`) and `POST {base}/embeddings`. Configured by AI_CHAT_* and AI_EMBEDDINGS_* (README, "AI").
 * A provider that cannot be reached, answers an error, or sends nothing for a while is `SERVICE_UNAVAILABLE` (503);
 * one that answers something unreadable is `UPSTREAM_FAILED` (502); past the time limit, `TIMEOUT` (504). Never a hang.
 */
import type { OpenAiEndpoint } from '../../config/llm';
import { AppError } from '../../errors';
import type { AnswerGenerator, GenerateInput, PassageEmbedder } from './ports';

interface Limits {
  /** The whole call. */
  timeoutMs: number;
}

const headersOf = (endpoint: OpenAiEndpoint) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
});

/** The provider's answer to a request, or the AppError the caller turns into a JSON error. */
async function post(
  endpoint: OpenAiEndpoint,
  path: string,
  body: unknown,
  signal: AbortSignal,
  timeout: AbortSignal,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${endpoint.baseUrl}${path}`, {
      method: 'POST',
      headers: headersOf(endpoint),
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    throw failure(error, signal, timeout, endpoint);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    const message = /"message"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? text;
    throw new AppError(
      response.status === 429 || response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'UPSTREAM_FAILED',
      `The AI provider answered ${response.status}${message ? `: ${message}` : ''}.`,
    );
  }
  return response;
}

function failure(error: unknown, signal: AbortSignal, timeout: AbortSignal, endpoint: OpenAiEndpoint): unknown {
  if (error instanceof AppError) return error;
  if (signal.aborted) return signal.reason ?? error;
  if (timeout.aborted) return new AppError('TIMEOUT', 'The AI provider took too long to answer.');
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The AI provider at ${new URL(endpoint.baseUrl).host} cannot be reached.`,
    {
      cause: error,
    },
  );
}

/** The text of one streamed chat chunk (`choices[0].delta.content`), '' for chunks without text. */
function deltaOf(json: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new AppError('UPSTREAM_FAILED', 'The AI provider sent a stream that is not valid JSON.');
  }
  const choice = (parsed as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0];
  const error = (parsed as { error?: { message?: unknown } }).error;
  if (!choice && error) throw new AppError('SERVICE_UNAVAILABLE', `The AI provider failed: ${String(error.message)}`);
  const content = choice?.delta?.content;
  return typeof content === 'string' ? content : '';
}

export function createOpenAiGenerator(endpoint: OpenAiEndpoint, limits: Limits): AnswerGenerator {
  // A stream that sends nothing for this long counts as down.
  const stallMs = Math.max(1_000, Math.round(limits.timeoutMs / 5));
  return {
    label: `${endpoint.model} (${new URL(endpoint.baseUrl).host})`,
    async *stream({ system, prompt, signal, maxTokens }: GenerateInput) {
      const timeout = AbortSignal.timeout(limits.timeoutMs);
      const stall = new AbortController();
      let stallTimer: NodeJS.Timeout | undefined;
      const armStall = () => {
        clearTimeout(stallTimer);
        stallTimer = setTimeout(() => stall.abort(), stallMs);
      };
      armStall();
      const stalled = () => new AppError('SERVICE_UNAVAILABLE', 'The AI provider stopped sending its answer.');
      try {
        const response = await post(
          endpoint,
          '/chat/completions',
          {
            model: endpoint.model,
            stream: true,
            max_tokens: maxTokens,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: prompt },
            ],
          },
          AbortSignal.any([signal, stall.signal]),
          timeout,
        ).catch((error: unknown) => {
          throw stall.signal.aborted && !signal.aborted ? stalled() : error;
        });
        if (!response.body) throw new AppError('UPSTREAM_FAILED', 'The AI provider sent an empty answer.');
        const decoder = new TextDecoder();
        let pending = '';
        try {
          for await (const chunk of response.body) {
            armStall();
            pending += decoder.decode(chunk as Uint8Array, { stream: true });
            let newline: number;
            while ((newline = pending.indexOf('\n')) >= 0) {
              const line = pending.slice(0, newline).replace(/\r$/, '');
              pending = pending.slice(newline + 1);
              if (!line.startsWith('data:')) continue;
              const data = line.slice(5).trim();
              if (data === '[DONE]') return;
              const text = deltaOf(data);
              if (text) yield text;
            }
          }
        } catch (error) {
          if (signal.aborted) return;
          if (stall.signal.aborted) throw stalled();
          throw failure(error, signal, timeout, endpoint);
        }
        if (!signal.aborted) throw new AppError('UPSTREAM_FAILED', 'The AI provider’s stream ended without [DONE].');
      } finally {
        clearTimeout(stallTimer);
      }
    },
  };
}

/** `dimensions`: from AI_EMBEDDINGS_DIMENSIONS, else learned from the first answer (0 until then). */
export function createOpenAiEmbedder(endpoint: OpenAiEndpoint, configured: number, limits: Limits): PassageEmbedder {
  let dimensions = configured;
  return {
    label: `${endpoint.model} (${new URL(endpoint.baseUrl).host})`,
    get dimensions() {
      return dimensions;
    },
    async embed(texts: string[], signal: AbortSignal = new AbortController().signal) {
      if (texts.length === 0) return [];
      const timeout = AbortSignal.timeout(limits.timeoutMs);
      const response = await post(endpoint, '/embeddings', { model: endpoint.model, input: texts }, signal, timeout);
      let parsed: unknown;
      try {
        parsed = await response.json();
      } catch (error) {
        throw error instanceof Error && error.name === 'AbortError'
          ? failure(error, signal, timeout, endpoint)
          : new AppError('UPSTREAM_FAILED', 'The AI provider’s embeddings are not valid JSON.');
      }
      const data = (parsed as { data?: { index?: number; embedding?: unknown }[] }).data;
      if (!Array.isArray(data) || data.length !== texts.length)
        throw new AppError('UPSTREAM_FAILED', 'The AI provider answered a different number of embeddings.');
      const vectors: Float32Array[] = [];
      for (const [position, item] of data.entries()) {
        const embedding = item.embedding;
        if (!Array.isArray(embedding) || !embedding.every((value) => typeof value === 'number'))
          throw new AppError('UPSTREAM_FAILED', 'The AI provider sent an embedding that is not a list of numbers.');
        if (dimensions > 0 && embedding.length !== dimensions)
          throw new AppError(
            'UPSTREAM_FAILED',
            `The AI provider’s embeddings have ${embedding.length} dimensions, not ${dimensions}.`,
          );
        dimensions ||= embedding.length;
        vectors[typeof item.index === 'number' ? item.index : position] = Float32Array.from(embedding as number[]);
      }
      return vectors;
    },
  };
}
