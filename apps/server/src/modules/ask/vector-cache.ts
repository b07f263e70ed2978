/** The cell key of a vector in no cell (written before any training). */
const NO_CELL = -1;

/**
 * An instance's copy of one embedder's vectors (docs/PRODUCT.md#ask-your-files), one byte per dimension (each
 * vector at unit length × 127), grouped by their cell of the vector index, so a question compares itself with the
 * vectors of its nearest cells in memory instead of reading them from the database (~10 µs a row). The database
 * stays the truth: `vector-index.ts` fills it and applies what changed; a passage deleted since stays here until
 * the next full load (who may read a passage, and whether it still exists, is asked of the database afterwards).
 */
export class VectorCache {
  private ids = new Float64Array(1024);
  private cellOf = new Int32Array(1024);
  private norms = new Float32Array(1024);
  private seqOf = new Float64Array(1024);
  private codes: Int8Array = new Int8Array(0);
  private dimensions = 0;
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
      this.codes.byteLength +
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
      this.codes = new Int8Array(this.ids.length * this.dimensions);
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
    const base = entry * this.dimensions;
    for (let i = 0; i < this.dimensions; i += 1) {
      const code = Math.round((vector[i] ?? 0) * scale);
      this.codes[base + i] = code;
      norm += code * code;
    }
    this.norms[entry] = Math.sqrt(norm);
  }

  /**
   * The vectors of cells `keys`, of no cell and of cells below `below` (a retired training's), or of every cell
   * (`keys` null), with their cosine to `query`.
   */
  nearest(query: Float32Array, keys: number[] | null, below: number): { ids: number[]; cosines: Float64Array } {
    const d = this.dimensions;
    let qq = 0;
    for (let i = 0; i < d; i += 1) qq += (query[i] ?? 0) ** 2;
    if (qq === 0 || d === 0) return { ids: [], cosines: new Float64Array(0) };
    const qNorm = Math.sqrt(qq);
    const q = Float32Array.from({ length: d }, (_, i) => query[i] ?? 0);
    const wanted = keys === null ? [...this.members.keys()] : [...new Set([...keys, NO_CELL])];
    if (keys !== null) for (const key of this.members.keys()) if (key !== NO_CELL && key < below) wanted.push(key);
    const lists = wanted.map((key) => this.members.get(key) ?? []);
    const ids: number[] = [];
    const cosines = new Float64Array(lists.reduce((sum, list) => sum + list.length, 0));
    const codes = this.codes;
    for (const list of lists) {
      for (const entry of list) {
        const id = this.ids[entry] ?? -1;
        if (id < 0) continue;
        const base = entry * d;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let i = 0;
        for (; i + 3 < d; i += 4) {
          s0 += (codes[base + i] ?? 0) * (q[i] ?? 0);
          s1 += (codes[base + i + 1] ?? 0) * (q[i + 1] ?? 0);
          s2 += (codes[base + i + 2] ?? 0) * (q[i + 2] ?? 0);
          s3 += (codes[base + i + 3] ?? 0) * (q[i + 3] ?? 0);
        }
        for (; i < d; i += 1) s0 += (codes[base + i] ?? 0) * (q[i] ?? 0);
        const norm = this.norms[entry] ?? 0;
        cosines[ids.length] = norm === 0 ? 0 : (s0 + s1 + s2 + s3) / (norm * qNorm);
        ids.push(id);
      }
    }
    return { ids, cosines: cosines.subarray(0, ids.length) };
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
    out.codes = new Int8Array((live + 1024) * this.dimensions);
    const d = this.dimensions;
    for (const key of [...this.members.keys()].sort((a, b) => a - b)) {
      const list: number[] = [];
      for (const entry of this.members.get(key) ?? []) {
        const id = this.ids[entry] ?? -1;
        if (id < 0) continue;
        const to = out.count;
        out.count += 1;
        out.ids[to] = id;
        out.cellOf[to] = key;
        out.norms[to] = this.norms[entry] ?? 0;
        out.seqOf[to] = this.seqOf[entry] ?? 0;
        out.codes.set(this.codes.subarray(entry * d, (entry + 1) * d), to * d);
        out.entryOf.set(id, to);
        list.push(to);
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
      this.codes = copied(this.codes, new Int8Array(capacity * this.dimensions));
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
