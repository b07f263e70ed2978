/**
 * The process that runs one uploaded GGUF model with node-llama-cpp (docs/PRODUCT.md#ai-models), started and
 * watched by `llama-host.ts` (memory, time, idle unload). A separate process, so a model that exhausts memory or
 * that llama.cpp aborts on takes only this process down, never the server. Only the prebuilt CPU binary that ships
 * in npm is used (`build: 'never'`, no GPU): nothing is downloaded or compiled at run time.
 */
import {
  getLlama,
  LlamaChatSession,
  type LlamaContext,
  type LlamaEmbeddingContext,
  type LlamaModel,
} from 'node-llama-cpp';
import type { FromModel, ToModel } from './llama-protocol';

const send = (message: FromModel) => process.send?.(message);

let model: LlamaModel | undefined;
let context: LlamaContext | undefined;
let embedding: LlamaEmbeddingContext | undefined;
let threads = 0;
const running = new Map<number, AbortController>();
let queue: Promise<void> = Promise.resolve();

async function load(path: string, wantedThreads: number, contextSize: number) {
  try {
    const llama = await getLlama({ gpu: false, build: 'never', usePrebuiltBinaries: true, logLevel: 'error' as never });
    threads = wantedThreads;
    model = await llama.loadModel({ modelPath: path, gpuLayers: 0, checkTensors: true });
    send({ type: 'loaded', trainContextSize: model.trainContextSize, embeddingSize: model.embeddingVectorSize });
    context = await model.createContext({
      contextSize: Math.min(contextSize, model.trainContextSize),
      ...(threads > 0 ? { threads } : {}),
    });
  } catch (error) {
    send({ type: 'load-failed', message: error instanceof Error ? error.message : String(error) });
  }
}

async function generate(id: number, system: string, prompt: string, maxTokens: number) {
  if (!model || !context) throw new Error('No model is loaded.');
  const controller = new AbortController();
  running.set(id, controller);
  const sequence = context.getSequence();
  const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: system, autoDisposeSequence: true });
  try {
    await session.prompt(prompt, {
      maxTokens,
      signal: controller.signal,
      stopOnAbortSignal: true,
      onTextChunk: (text) => {
        if (text) send({ type: 'chunk', id, text });
      },
    });
  } finally {
    session.dispose();
  }
}

async function embed(id: number, texts: string[]) {
  if (!model) throw new Error('No model is loaded.');
  embedding ??= await model.createEmbeddingContext(threads > 0 ? { threads } : {});
  const vectors: number[][] = [];
  const controller = new AbortController();
  running.set(id, controller);
  for (const text of texts) {
    if (controller.signal.aborted) return;
    vectors.push([...(await embedding.getEmbeddingFor(text)).vector]);
  }
  send({ type: 'vectors', id, vectors });
}

function run(id: number, work: () => Promise<void>) {
  queue = queue.then(async () => {
    try {
      await work();
      send({ type: 'done', id });
    } catch (error) {
      send({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
    } finally {
      running.delete(id);
    }
  });
}

process.on('message', (message: ToModel) => {
  switch (message.type) {
    case 'load':
      queue = queue.then(() => load(message.path, message.threads, message.contextSize));
      break;
    case 'generate':
      run(message.id, () => generate(message.id, message.system, message.prompt, message.maxTokens));
      break;
    case 'embed':
      run(message.id, () => embed(message.id, message.texts));
      break;
    case 'cancel':
      running.get(message.id)?.abort();
      break;
  }
});
// The server went away: so does the model.
process.on('disconnect', () => process.exit(0));
