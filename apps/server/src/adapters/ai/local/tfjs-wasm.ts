/**
 * TensorFlow.js with the WebAssembly backend, loading its .wasm files from node_modules (not a CDN).
 * Each worker thread has its own tfjs instance.
 */
import type * as TfNamespace from '@tensorflow/tfjs';
import type * as TfWasmNamespace from '@tensorflow/tfjs-backend-wasm';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineUnavailableError } from './errors.js';
import { packageDir, requireCjs } from './packages.js';

export type Tf = typeof TfNamespace;

let ready: Promise<Tf> | undefined;

export function initTfjsWasm(feature: string): Promise<Tf> {
  ready ??= (async () => {
    const wasmDir = path.join(packageDir('@tensorflow/tfjs-backend-wasm', feature), 'dist');
    const tf = requireCjs('@tensorflow/tfjs') as Tf;
    const wasm = requireCjs('@tensorflow/tfjs-backend-wasm') as typeof TfWasmNamespace;
    wasm.setWasmPaths(wasmDir + path.sep);
    const ok = await tf.setBackend('wasm');
    if (!ok) throw new EngineUnavailableError(`${feature}: the TensorFlow.js WebAssembly backend failed to start`);
    await tf.ready();
    tf.enableProdMode();
    registerFileRouter(tf);
    return tf;
  })();
  return ready;
}

/**
 * A tf.io load router for file:// URLs: reads model.json and its weight shards with fs.
 * (tfjs in Node would otherwise try fetch(), which cannot read files.)
 */
function registerFileRouter(tf: Tf): void {
  // Routers return null for URLs they do not handle; tfjs's IORouter type omits the null.
  const router = (url: string | string[]): TfNamespace.io.IOHandler | null => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const modelPath = fileURLToPath(url);
    const handler: TfNamespace.io.IOHandler = {
      load: async (): Promise<TfNamespace.io.ModelArtifacts> => {
        const json = JSON.parse(await readFile(modelPath, 'utf8')) as TfNamespace.io.ModelJSON;
        const dir = path.dirname(modelPath);
        const weightSpecs = json.weightsManifest.flatMap((group) => group.weights);
        const shards = await Promise.all(
          json.weightsManifest.flatMap((group) => group.paths).map((p) => readFile(path.join(dir, p))),
        );
        const all = Buffer.concat(shards);
        const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
          modelInitializer: json.modelInitializer,
          weightSpecs,
          weightData,
        };
      },
    };
    return handler;
  };
  tf.io.registerLoadRouter(router as Parameters<Tf['io']['registerLoadRouter']>[0]);
}
