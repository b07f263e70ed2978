/**
 * The arithmetic of Ask's vector index (docs/PRODUCT.md#ask-your-files), in process: vectors grouped in cells around
 * centres found by spherical k-means, so a question compares itself with the centres and reads only the passages of
 * the nearest cells (an inverted-file index). Cosine throughout: vectors are compared at unit length.
 */

/** Below this many vectors of one embedder, every vector is read for each question; no index is kept. */
export const INDEXED_FROM = 20_000;
/** A cell's number in `passage_vectors.cell`: generation × CELL_SPAN + cell. */
export const CELL_SPAN = 65_536;
/** Most cells (a power of two below CELL_SPAN). */
const MOST_CELLS = 4_096;
/** Vectors of the sample the centres are trained on, per cell, and the rounds of k-means. */
const SAMPLE_PER_CELL = 32;
const ROUNDS = 6;

/** How many cells for `total` vectors: about √total, each then holding about as many vectors as there are cells. */
export const cellsFor = (total: number): number => Math.max(16, Math.min(MOST_CELLS, Math.round(Math.sqrt(total))));

/** How many vectors the centres are trained on for `cells` cells. */
export const sampleFor = (cells: number): number => cells * SAMPLE_PER_CELL;

/**
 * How many of `cells` cells a question reads first: 1/32 of them (at least 8): ~3 % of the vectors. More are read when
 * too few of their passages may be read by the asker (`retrieval.ts`).
 */
export const probesFor = (cells: number): number => Math.min(cells, Math.max(8, Math.ceil(cells / 32)));

/**
 * How many more cells a question compares in a copy in memory than in the database: 8 × 1/32, a quarter of the cells
 * (~26 % of the vectors at 300,000). With SIMD that costs ~3 ms, and the quarter holds 0.98 of a question's 10 nearest
 * where an eighth held 0.95 and 1/32 0.89 (docs/BENCHMARKS.md, Ask at 100,000 files).
 */
export const MEMORY_WIDENING = 8;

/** `vector` at unit length (a copy; a zero vector stays zero). */
export function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += (vector[i] ?? 0) ** 2;
  const out = new Float32Array(vector.length);
  if (sum === 0) return out;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i += 1) out[i] = (vector[i] ?? 0) * scale;
  return out;
}

/** The dot product of `a` and `b` over their common length. */
export function dot(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < length; i += 4) {
    s0 += (a[i] ?? 0) * (b[i] ?? 0);
    s1 += (a[i + 1] ?? 0) * (b[i + 1] ?? 0);
    s2 += (a[i + 2] ?? 0) * (b[i + 2] ?? 0);
    s3 += (a[i + 3] ?? 0) * (b[i + 3] ?? 0);
  }
  for (; i < length; i += 1) s0 += (a[i] ?? 0) * (b[i] ?? 0);
  return s0 + s1 + s2 + s3;
}

/** The cell of `centres` nearest to the unit vector `vector`. */
export function nearestCell(vector: Float32Array, centres: Float32Array[]): number {
  let best = 0;
  let bestDot = -Infinity;
  for (const [cell, centre] of centres.entries()) {
    const d = dot(vector, centre);
    if (d > bestDot) {
      bestDot = d;
      best = cell;
    }
  }
  return best;
}

/** The `count` cells of `centres` nearest to `query` (any length), nearest first. */
export function nearestCells(query: Float32Array, centres: Float32Array[], count: number): number[] {
  const q = unit(query);
  return centres
    .map((centre, cell) => ({ cell, d: dot(q, centre) }))
    .sort((a, b) => b.d - a.d || a.cell - b.cell)
    .slice(0, count)
    .map(({ cell }) => cell);
}

/**
 * Centres of `cells` cells for `sample` (spherical k-means: unit vectors, centres the normalised mean of their cell),
 * starting from evenly spaced members of the sample. `pause` is awaited between slices of the work, so a long
 * training leaves the event loop to requests; a cell left empty keeps its centre.
 */
export async function trainCells(
  sample: Float32Array[],
  cells: number,
  pause: () => Promise<void> = async () => undefined,
): Promise<Float32Array[]> {
  const vectors = sample.map(unit);
  if (vectors.length === 0) return [];
  const k = Math.min(cells, vectors.length);
  const step = vectors.length / k;
  const centres: Float32Array[] = Array.from({ length: k }, (_, i) =>
    Float32Array.from(vectors[Math.floor(i * step)] ?? []),
  );
  const dimensions = centres[0]?.length ?? 0;
  // About 20 million multiplications between pauses (~20 ms).
  const slice = Math.max(1, Math.floor(2e7 / Math.max(1, k * dimensions)));
  const cellOf = new Int32Array(vectors.length);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, vector] of vectors.entries()) {
      cellOf[i] = nearestCell(vector, centres);
      if (i % slice === slice - 1) await pause();
    }
    const sums = Array.from({ length: k }, () => new Float32Array(dimensions));
    const counts = new Int32Array(k);
    for (const [i, vector] of vectors.entries()) {
      const cell = cellOf[i] ?? 0;
      const sum = sums[cell];
      if (!sum) continue;
      counts[cell] = (counts[cell] ?? 0) + 1;
      for (let j = 0; j < dimensions; j += 1) sum[j] = (sum[j] ?? 0) + (vector[j] ?? 0);
    }
    for (const [cell, sum] of sums.entries()) if ((counts[cell] ?? 0) > 0) centres[cell] = unit(sum);
    await pause();
  }
  return centres;
}
