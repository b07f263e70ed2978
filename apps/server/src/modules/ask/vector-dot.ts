/**
 * The dot products of Ask's vector copy in memory (`vector-cache.ts`, docs/PRODUCT.md#ask-your-files) in
 * WebAssembly with 128-bit SIMD: each vector's one-byte codes against the question as 16-bit integers, 16 dimensions
 * an iteration. The JavaScript loop it replaces took ~1 ns a dimension (21–34 ms for a question's 28,000–63,000
 * vectors at 100,000 files, docs/BENCHMARKS.md, Ask at 100,000 files).
 */

/** `vector-dot.wat` compiled by wabt's wat2wasm (`vector-dot.test.ts` checks they agree). */
export const DOTS_WASM =
  'AGFzbQEAAAABCgFgBn9/f39/fwACDwEDZW52Bm1lbW9yeQIAAQMCAQAHCAEEZG90cwAACsMBAcABAwN/AnsBfwJAA0AgBiADTw0BIAAgAiAGQQJ0aigCACABbGohB/0MAAAAAAAAAAAAAAAAAAAAACEJQQAhCAJAA0AgCCABTw0BIAcgCGr9AAQAIQogBCAIQQF0aiELIAkgCv2HASAL/QAEAP26Af2uASEJIAkgCv2IASAL/QAEEP26Af2uASEJIAhBEGohCAwACwsgBSAGQQJ0aiAJ/RsAIAn9GwFqIAn9GwIgCf0bA2pqNgIAIAZBAWohBgwACwsL';

/** Dimensions per SIMD step: a vector's codes take a multiple of this many bytes, zero-padded. */
const LANES = 16;
const PAGE = 65_536;
/** The question's largest component as a 16-bit integer. */
const QUERY_SCALE = 32_767;

/** Node's WebAssembly, as much as is used here (its types come with the DOM library, which the server does not load). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer; grow(pages: number): number };
}
const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

const compiled = new wasm.Module(Buffer.from(DOTS_WASM, 'base64'));

/** The bytes a vector of `dimensions` takes in a `DotMemory`. */
export const strideOf = (dimensions: number): number => Math.ceil(dimensions / LANES) * LANES;

/**
 * A WebAssembly memory holding vectors' codes from offset 0, `stride` bytes each, and the kernel comparing them
 * with a question. Growing it keeps the codes in place (the views of `bytes` are then taken again).
 */
export class DotMemory {
  private readonly memory = new wasm.Memory({ initial: 1 });
  private readonly dots: (
    codes: number,
    stride: number,
    entries: number,
    count: number,
    query: number,
    out: number,
  ) => void;

  constructor() {
    const instance = new wasm.Instance(compiled, { env: { memory: this.memory } });
    this.dots = instance.exports.dots as DotMemory['dots'];
  }

  /** Makes the memory hold at least `size` bytes (a RangeError past the engine's limit, 4 GiB). */
  reserve(size: number): void {
    const pages = Math.ceil(size / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
  }

  /** The memory's bytes, as codes. */
  get bytes(): Int8Array {
    return new Int8Array(this.memory.buffer);
  }

  /**
   * The dot products of `query` with the codes of `entries` (`count` of them; codes `stride` bytes each, before
   * `from`), in the unit of the question at length 1: multiplied by `scale`, the second value returned.
   */
  products(
    from: number,
    stride: number,
    entries: Int32Array,
    count: number,
    query: Float32Array,
  ): { sums: Int32Array; scale: number } {
    let largest = 0;
    let squares = 0;
    for (const x of query) {
      largest = Math.max(largest, Math.abs(x));
      squares += x * x;
    }
    if (largest === 0) return { sums: new Int32Array(count), scale: 0 };
    const queryAt = Math.ceil(from / LANES) * LANES;
    const entriesAt = queryAt + 2 * stride;
    const outAt = entriesAt + 4 * count;
    this.reserve(outAt + 4 * count);
    const buffer = this.memory.buffer;
    const q = new Int16Array(buffer, queryAt, stride);
    q.fill(0);
    const toInteger = QUERY_SCALE / largest;
    for (let i = 0; i < query.length; i += 1) q[i] = Math.round((query[i] ?? 0) * toInteger);
    new Int32Array(buffer, entriesAt, count).set(entries.subarray(0, count));
    this.dots(0, stride, entriesAt, count, queryAt, outAt);
    return { sums: new Int32Array(buffer, outAt, count), scale: 1 / (toInteger * Math.sqrt(squares)) };
  }
}
