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
    registerFastConcat(tf);
    registerFastSlice(tf);
    registerFileRouter(tf);
    return tf;
  })();
  return ready;
}

interface WasmBackend {
  makeOutput(shape: number[], dtype: TfNamespace.DataType): TfNamespace.TensorInfo;
  typedArrayFromHeap(info: TfNamespace.TensorInfo): TfNamespace.TypedArray;
}

/**
 * Concatenation along an axis whose inner slices are a few elements long, e.g. face-api's
 * per-channel mean ([n, 112, 112, 1] × 3 along the channels). The wasm backend's Concat copies one
 * `subarray()` per inner slice — 110 000 of them for one 3-face batch, 5–17 ms — so this copies
 * element by element instead and leaves every other case to the original kernel.
 */
export const SMALL_INNER_CONCAT = 16;

function registerFastConcat(tf: Tf): void {
  const original = tf.getKernel('Concat', 'wasm');
  if (!original) return;
  const kernelFunc: TfNamespace.KernelFunc = (args) => {
    const inputs = args.inputs as unknown as TfNamespace.TensorInfo[];
    const backend = args.backend as unknown as WasmBackend;
    const first = inputs[0];
    if (!first || inputs.length < 2 || first.dtype === 'string') return original.kernelFunc(args);
    const rank = first.shape.length;
    const rawAxis = (args.attrs as { axis?: number | number[] } | undefined)?.axis;
    const axisParam = Array.isArray(rawAxis) ? rawAxis[0] : rawAxis;
    const axis = (axisParam ?? 0) < 0 ? (axisParam ?? 0) + rank : (axisParam ?? 0);
    const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
    const inner = inputs.map((t) => size(t.shape.slice(axis)));
    if (inner.some((n) => n === 0 || n > SMALL_INNER_CONCAT) || inputs.some((t) => t.dtype !== first.dtype)) {
      return original.kernelFunc(args);
    }
    const outShape = [...first.shape];
    outShape[axis] = inputs.reduce((sum, t) => sum + (t.shape[axis] ?? 0), 0);
    const out = backend.makeOutput(outShape, first.dtype);
    // Views after makeOutput(): growing the wasm heap detaches earlier ones.
    const outVals = backend.typedArrayFromHeap(out);
    const inVals = inputs.map((t) => backend.typedArrayFromHeap(t));
    const outer = size(first.shape.slice(0, axis));
    let o = 0;
    for (let b = 0; b < outer; b++) {
      for (let i = 0; i < inVals.length; i++) {
        const vals = inVals[i] as TfNamespace.TypedArray;
        const n = inner[i] as number;
        for (let k = b * n, end = k + n; k < end; k++) outVals[o++] = vals[k] as number;
      }
    }
    return out;
  };
  tf.unregisterKernel('Concat', 'wasm');
  tf.registerKernel({ ...original, kernelFunc });
}

/**
 * Slicing a [height, width, channels] tensor to a box with all its channels (face-api's face
 * crops): each row of the box is one contiguous run, copied at once. The wasm backend's Slice
 * copies one `subarray()` per pixel instead (30 000 for three 100-pixel faces). Every other case
 * goes to the original kernel.
 */
function registerFastSlice(tf: Tf): void {
  const original = tf.getKernel('Slice', 'wasm');
  if (!original) return;
  const kernelFunc: TfNamespace.KernelFunc = (args) => {
    const x = (args.inputs as { x?: TfNamespace.TensorInfo }).x;
    const backend = args.backend as unknown as WasmBackend;
    const attrs = args.attrs as { begin?: number | number[]; size?: number | number[] } | undefined;
    const begin = attrs?.begin;
    const size = attrs?.size;
    if (!x || x.dtype === 'string' || x.shape.length !== 3 || !Array.isArray(begin) || !Array.isArray(size)) {
      return original.kernelFunc(args);
    }
    const [height = 0, width = 0, channels = 0] = x.shape;
    const [y = -1, left = -1, c = -1] = begin;
    const [h = -2, w = -2, cs = -2] = size;
    const whole = c === 0 && (cs === channels || cs === -1);
    if (!whole || y < 0 || left < 0 || h < 0 || w < 0 || y + h > height || left + w > width) {
      return original.kernelFunc(args);
    }
    const out = backend.makeOutput([h, w, channels], x.dtype);
    const outVals = backend.typedArrayFromHeap(out);
    const xVals = backend.typedArrayFromHeap(x);
    const run = w * channels;
    for (let i = 0; i < h; i++) {
      const from = ((y + i) * width + left) * channels;
      outVals.set(xVals.subarray(from, from + run), i * run);
    }
    return out;
  };
  tf.unregisterKernel('Slice', 'wasm');
  tf.registerKernel({ ...original, kernelFunc });
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
