/**
 * The llm module's face: what writes generated answers and embeds passages for Ask (docs/PRODUCT.md#ai-models),
 * offline by default. `currentGenerator()` and `currentEmbedder()` answer, in order: a configured OpenAI-compatible
 * provider (`openai-providers.ts`: AI_CHAT_* streaming `/chat/completions`, AI_EMBEDDINGS_* `/embeddings`), else the
 * GGUF model an admin uploaded and selected for that role, else null — then nothing leaves the machine and Ask
 * answers extractively. Uploaded models (`ai-models.service.ts`, table `ai_models`, files in `DATA_DIR/models`) run
 * in a child process (`llama-host.ts` + `llama.child.ts`, node-llama-cpp's prebuilt CPU binary): one model at a time,
 * a memory limit (AI_MODEL_MEMORY_MB), a time limit (AI_LLM_TIMEOUT_SECONDS), cancel, unload after
 * AI_IDLE_UNLOAD_MINUTES. Failures are AppErrors: 503 (down, over memory), 502 (unreadable answer), 504 (too slow).
 * Upload, select and delete are admin routes, audited (`ai_model.uploaded`, `.selected`, `.deleted`).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { LlmConfig } from '../../config/llm';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { Clock } from '../../lib/time';
import { createAiModelsRepository } from './ai-models.repository';
import { registerAiModelsRoutes } from './ai-models.routes';
import { createAiModelsService } from './ai-models.service';
import { createLlamaHost } from './llama-host';

/** How often an instance rereads which models are selected (another instance may have changed them). */
const REFRESH_MS = 60_000;

export interface LlmModuleDeps {
  db: Db;
  config: LlmConfig;
  dataDir: string;
  idleUnloadMs: number;
  clock: Clock;
  events: EventEmitter;
}

export async function createLlmModule(app: FastifyInstance, deps: LlmModuleDeps) {
  const host = createLlamaHost({
    memoryBytes: deps.config.model.memoryBytes,
    timeoutMs: deps.config.timeoutMs,
    idleUnloadMs: deps.idleUnloadMs,
    threads: deps.config.model.threads,
    log: app.log,
  });
  const models = createAiModelsService({
    repo: createAiModelsRepository(deps.db),
    host,
    config: deps.config,
    dir: path.join(deps.dataDir, 'models'),
    clock: deps.clock,
  });
  await registerAiModelsRoutes(app, { models, events: deps.events, maxUploadBytes: deps.config.model.maxBytes });
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await models.refresh();
    timer = setInterval(() => void models.refresh().catch(() => undefined), REFRESH_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await host.close();
  });
  const llm = {
    currentGenerator: () => models.currentGenerator(),
    currentEmbedder: () => models.currentEmbedder(),
    /** The model process, for tests: which model is loaded. */
    loadedModel: () => host.loadedPath(),
  };
  return { llm };
}

export type LlmService = Awaited<ReturnType<typeof createLlmModule>>['llm'];
