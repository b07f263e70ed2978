/**
 * Uploaded GGUF models (docs/PRODUCT.md#ai-models): upload (streamed to `DATA_DIR/models`, size-limited, GGUF
 * header and metadata checked before the file is kept), list, select for `chat` or `embeddings`, delete; and which
 * generator and embedder answer now — a configured provider first, else the selected model, else none.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AI_MODEL_TEXTS, type AiModelList, type AiModelRecord, type AiModelRole } from '@atrium/contracts';
import type { LlmConfig } from '../../config/llm';
import { AppError } from '../../errors';
import type { FilePart } from '../../lib/multipart';
import type { Clock } from '../../lib/time';
import type { AiModelsTable } from '../../db/schema';
import type { AiModelsRepository } from './ai-models.repository';
import { GgufError, looksLikeGguf, readGgufInfo } from './gguf';
import type { LlamaHost } from './llama-host';
import { createOpenAiEmbedder, createOpenAiGenerator } from './openai-providers';
import type { AnswerGenerator, PassageEmbedder } from './ports';

export interface AiModelsServiceDeps {
  repo: AiModelsRepository;
  host: LlamaHost;
  config: LlmConfig;
  /** Where model files are kept: `DATA_DIR/models`. */
  dir: string;
  clock: Clock;
}

const present = (row: AiModelsTable): AiModelRecord => ({
  id: row.id,
  name: row.name,
  sizeBytes: row.size_bytes,
  architecture: row.architecture,
  embeddingLength: row.embedding_length,
  contextLength: row.context_length,
  role: row.role === 'chat' || row.role === 'embeddings' ? row.role : null,
  uploadedAt: row.uploaded_at,
  uploadedBy: row.uploaded_by,
});

/** Bytes through, counted; the first 8 checked for the GGUF magic and version, the total for the limit. */
function guard(maxBytes: number) {
  let seen = 0;
  let head = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new AppError('PAYLOAD_TOO_LARGE', AI_MODEL_TEXTS.tooLarge));
      if (head.length < 8) {
        head = Buffer.concat([head, chunk.subarray(0, 8 - head.length)]);
        if (head.length >= 8 && !looksLikeGguf(head))
          return done(new AppError('UNSUPPORTED_MEDIA_TYPE', AI_MODEL_TEXTS.notGguf));
      }
      done(null, chunk);
    },
    flush(done) {
      done(head.length < 8 ? new AppError('UNSUPPORTED_MEDIA_TYPE', AI_MODEL_TEXTS.notGguf) : null);
    },
  });
}

const MAX_ANSWER_TOKENS = 1024;

export function createAiModelsService({ repo, host, config, dir, clock }: AiModelsServiceDeps) {
  const fileOf = (id: string) => path.join(dir, `${id}.gguf`);
  const limits = { timeoutMs: config.timeoutMs };
  const chatProvider = config.chat && createOpenAiGenerator(config.chat, limits);
  const embeddingsProvider =
    config.embeddings && createOpenAiEmbedder(config.embeddings, config.embeddings.dimensions, limits);
  /** The selected model of each role, as last read (refreshed on every change here and by `refresh`). */
  const selected = new Map<AiModelRole, AiModelsTable>();

  async function refresh() {
    selected.clear();
    for (const role of ['chat', 'embeddings'] as const) {
      const row = await repo.findByRole(role);
      if (row) selected.set(role, row);
    }
  }

  async function load(id: string) {
    const row = await repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND', AI_MODEL_TEXTS.notFound);
    return row;
  }

  function modelGenerator(row: AiModelsTable): AnswerGenerator {
    const file = fileOf(row.id);
    return {
      label: row.name,
      stream: (input) =>
        host.generate(file, { ...input, maxTokens: Math.min(Math.max(1, input.maxTokens), MAX_ANSWER_TOKENS) }),
    };
  }

  function modelEmbedder(row: AiModelsTable): PassageEmbedder {
    const file = fileOf(row.id);
    return {
      label: row.name,
      dimensions: row.embedding_length ?? 0,
      embed: (texts, signal) => host.embed(file, texts, signal),
    };
  }

  return {
    refresh,
    async list(): Promise<AiModelList> {
      const rows = await repo.list();
      const source = (provider: { label: string } | undefined, role: AiModelRole) => {
        if (provider) return { kind: 'provider' as const, label: provider.label };
        const row = rows.find((r) => r.role === role);
        return row ? { kind: 'model' as const, label: row.name } : { kind: 'none' as const, label: null };
      };
      return {
        models: rows.map(present),
        chat: source(chatProvider, 'chat'),
        embeddings: source(embeddingsProvider, 'embeddings'),
        maxUploadBytes: config.model.maxBytes,
      };
    },
    /** Streams the upload to a temporary file, checks it is a GGUF model, then keeps it. */
    async upload(uploadedBy: string, part: FilePart): Promise<AiModelRecord> {
      await mkdir(dir, { recursive: true });
      const id = randomUUID();
      const partial = path.join(dir, `${id}.part`);
      try {
        await pipeline(part.stream, guard(config.model.maxBytes), createWriteStream(partial));
        if ((part.stream as { truncated?: boolean }).truncated)
          throw new AppError('PAYLOAD_TOO_LARGE', AI_MODEL_TEXTS.tooLarge);
        const info = await readGgufInfo(partial).catch((error: unknown) => {
          throw error instanceof GgufError ? new AppError('UNSUPPORTED_MEDIA_TYPE', error.message) : error;
        });
        const { size } = await stat(partial);
        await rename(partial, fileOf(id));
        const row: AiModelsTable = {
          id,
          name: path.basename(part.fileName || 'model.gguf').slice(0, 200),
          size_bytes: size,
          architecture: info.architecture.slice(0, 100),
          embedding_length: info.embeddingLength,
          context_length: info.contextLength,
          role: null,
          uploaded_by: uploadedBy,
          uploaded_at: clock.now().toISOString(),
        };
        await repo.insert(row);
        return present(row);
      } catch (error) {
        part.stream.resume();
        await rm(partial, { force: true });
        await rm(fileOf(id), { force: true });
        throw error;
      }
    },
    async select(id: string, role: AiModelRole | null): Promise<AiModelRecord> {
      const before = await load(id);
      await repo.setRole(id, role);
      if (before.role !== role) await host.unload(fileOf(id));
      await refresh();
      return present(await load(id));
    },
    async remove(id: string): Promise<AiModelRecord> {
      const row = await load(id);
      await host.unload(fileOf(id));
      await repo.remove(id);
      await rm(fileOf(id), { force: true });
      await refresh();
      return present(row);
    },
    /** What writes generated answers now: the chat provider, else the selected chat model, else null. */
    currentGenerator(): AnswerGenerator | null {
      if (chatProvider) return chatProvider;
      const row = selected.get('chat');
      return row && existsSync(fileOf(row.id)) ? modelGenerator(row) : null;
    },
    /** What embeds passages now: the embeddings provider, else the selected embedding model, else null. */
    currentEmbedder(): PassageEmbedder | null {
      if (embeddingsProvider) return embeddingsProvider;
      const row = selected.get('embeddings');
      return row && existsSync(fileOf(row.id)) ? modelEmbedder(row) : null;
    },
  };
}

export type AiModelsService = ReturnType<typeof createAiModelsService>;
