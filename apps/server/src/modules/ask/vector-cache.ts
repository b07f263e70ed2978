import { DotMemory, strideOf } from './vector-dot';

/** The cell key of a vector in no cell (written before any training). */
const NO_CELL = -1;

/**
 * An instance's copy of one embedder's vectors (docs/PRODUCT.md#ask-your-files), one byte per dimension (each
 * vector at unit length × 127), grouped by their cell of the vector index, so a question compares itself with the
 * vectors of its nearest cells in memory instead of reading them from the database (~10 µs a row). The database
 * stays the truth: `vector-index.ts` fills it and applies what changed; a passage deleted since stays here until
 * the next full load (who may read a passage, and whether it still exists, is asked of the database afterwards).
 * The codes live in a WebAssembly memory, compared with a question by SIMD (`vector-dot.ts`).
 */
export class VectorCache {
  private ids = new Float64Array(1024);
  private cellOf = new Int32Array(1024);
  private norms = new Float32Array(1024);
  private seqOf = new Float64Array(1024);
  private readonly memory = new DotMemory();
  private dimensions = 0;
  /** Bytes per vector in `memory`: the dimensions rounded up to the SIMD width. */
  private stride = 0;
  private count = 0;
  private readonly entryOf = new Map<number, number>();
  private readonly members = new Map<number, number[]>();

  /** Vectors held (a passage's newer vector replaces its older one). */
  get size(): number {
    return this.entryOf.size;
  }

  /** Memory held by the vectors, in bytes. */
  get bytes(): number {
    return (
      this.ids.length * this.stride +
      this.ids.byteLength +
      this.cellOf.byteLength +
      this.norms.byteLength +
      this.seqOf.byteLength
    );
  }

  /**
   * Adds or replaces a passage's vector and cell (`key`: generation × CELL_SPAN + cell, or null), as of change `seq`
   * (`passage_vectors.seq`; an older change than the one held is ignored).
   */
  put(passageId: number, vector: Float32Array, key: number | null, seq: number): void {
    if (this.dimensions === 0) {
      this.dimensions = vector.length;
      this.stride = strideOf(vector.length);
      this.memory.reserve(this.ids.length * this.stride);
    }
    const cell = key ?? NO_CELL;
    let entry = this.entryOf.get(passageId);
    if (entry !== undefined && (this.seqOf[entry] ?? 0) > seq) return;
    if (entry === undefined || this.cellOf[entry] !== cell) {
      // A new entry; one moved to another cell leaves its old one behind, skipped by `nearest`.
      if (entry !== undefined) this.ids[entry] = -1;
      entry = this.grow();
      this.entryOf.set(passageId, entry);
      this.ids[entry] = passageId;
      this.cellOf[entry] = cell;
      const list = this.members.get(cell) ?? [];
      list.push(entry);
      this.members.set(cell, list);
    }
    this.seqOf[entry] = seq;
    let sum = 0;
    for (let i = 0; i < this.dimensions; i += 1) sum += (vector[i] ?? 0) ** 2;
    const scale = sum === 0 ? 0 : 127 / Math.sqrt(sum);
    let norm = 0;
    const codes = this.memory.bytes;
    const base = entry * this.stride;
    for (let i = 0; i < this.dimensions; i += 1) {
      const code = Math.round((vector[i] ?? 0) * scale);
      codes[base + i] = code;
      norm += code * code;
    }
    this.norms[entry] = Math.sqrt(norm);
  }

  /**
   * The vectors of cells `keys`, of no cell and of cells below `below` (a retired training's), or of every cell
   * (`keys` null), with their cosine to `query`.
   */
  nearest(query: Float32Array, keys: number[] | null, below: number): { ids: Float64Array; cosines: Float64Array } {
    if (this.dimensions === 0) return { ids: new Float64Array(0), cosines: new Float64Array(0) };
    const wanted = keys === null ? [...this.members.keys()] : [...new Set([...keys, NO_CELL])];
    if (keys !== null) for (const key of this.members.keys()) if (key !== NO_CELL && key < below) wanted.push(key);
    const lists = wanted.map((key) => this.members.get(key) ?? []);
    let total = 0;
    for (const list of lists) total += list.length;
    // Typed arrays filled in place: pushing to an array, or copying a typed one into it, took 3.7–4.8 ms of a
    // question's ~5 ms here (the cells' 39,000 vectors at 100,000 files).
    const entries = new Int32Array(total);
    const found = new Float64Array(total);
    let n = 0;
    for (const list of lists) {
      for (let j = 0; j < list.length; j += 1) {
        const entry = list[j] ?? 0;
        const id = this.ids[entry] ?? -1;
        if (id < 0) continue;
        entries[n] = entry;
        found[n] = id;
        n += 1;
      }
    }
    const ids = found.subarray(0, n);
    const q =
      query.length === this.dimensions
        ? query
        : Float32Array.from({ length: this.dimensions }, (_, i) => query[i] ?? 0);
    // Its working space goes after the room kept for codes.
    const { sums, scale } = this.memory.products(this.ids.length * this.stride, this.stride, entries, n, q);
    if (scale === 0) return { ids: new Float64Array(0), cosines: new Float64Array(0) };
    const cosines = new Float64Array(n);
    for (let k = 0; k < n; k += 1) {
      const norm = this.norms[entries[k] ?? 0] ?? 0;
      cosines[k] = norm === 0 ? 0 : ((sums[k] ?? 0) * scale) / norm;
    }
    return { ids, cosines };
  }

  /**
   * The same vectors laid out cell after cell in memory (a question then reads each cell's in one run) without the
   * entries replaced since or the room kept for more: once loaded (`vector-index.ts`).
   */
  packed(): VectorCache {
    const out = new VectorCache();
    const live = this.entryOf.size;
    out.dimensions = this.dimensions;
    out.ids = new Float64Array(live + 1024);
    out.cellOf = new Int32Array(live + 1024);
    out.norms = new Float32Array(live + 1024);
    out.seqOf = new Float64Array(live + 1024);
    out.stride = this.stride;
    out.memory.reserve((live + 1024) * this.stride);
    const stride = this.stride;
    const from = this.memory.bytes;
    const to = out.memory.bytes;
    for (const key of [...this.members.keys()].sort((a, b) => a - b)) {
      const list: number[] = [];
      for (const entry of this.members.get(key) ?? []) {
        const id = this.ids[entry] ?? -1;
        if (id < 0) continue;
        const at = out.count;
        out.count += 1;
        out.ids[at] = id;
        out.cellOf[at] = key;
        out.norms[at] = this.norms[entry] ?? 0;
        out.seqOf[at] = this.seqOf[entry] ?? 0;
        to.set(from.subarray(entry * stride, (entry + 1) * stride), at * stride);
        out.entryOf.set(id, at);
        list.push(at);
      }
      out.members.set(key, list);
    }
    return out;
  }

  private grow(): number {
    if (this.count === this.ids.length) {
      const capacity = this.ids.length * 2;
      this.ids = copied(this.ids, new Float64Array(capacity));
      this.cellOf = copied(this.cellOf, new Int32Array(capacity));
      this.norms = copied(this.norms, new Float32Array(capacity));
      this.seqOf = copied(this.seqOf, new Float64Array(capacity));
      // The codes stay where they are: their memory grows behind them.
      this.memory.reserve(capacity * this.stride);
    }
    this.count += 1;
    return this.count - 1;
  }
}

/** `to` holding `from` at its start. */
function copied<T extends { set(from: T): void }>(from: T, to: T): T {
  to.set(from);
  return to;
}
