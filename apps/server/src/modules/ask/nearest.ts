/**
 * Dense retrieval's arithmetic, in process (docs/PRODUCT.md#ask-your-files): cosine similarity, and the nearest few
 * of many scores without sorting them all.
 */

/** The cosine similarity of `a` and `b` over their common length (0 for a zero vector). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

/**
 * The indexes of the `count` highest of `scores`, highest first (ties: the earlier index first), so the first k of a
 * larger count are the same k. A heap of `count` keeps them: 300,000 scores are not sorted to find the best 100. (Typed
 * arrays and comparisons written out: with a comparison function and swaps by destructuring, the best 6,400 of
 * 39,000 took ~2.5 ms, docs/BENCHMARKS.md, Ask at 100,000 files.)
 */
export function bestFirst(scores: Float64Array, count: number): number[] {
  const size = Math.min(count, scores.length);
  if (size <= 0) return [];
  // A heap whose root is the worst index kept: index a is worse than b when its score is lower, or equal and a > b.
  const heap = new Int32Array(size);
  const value = new Float64Array(size);
  for (let i = 0; i < size; i += 1) {
    // Sift up.
    const score = scores[i] ?? 0;
    let at = i;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = value[parent] ?? 0;
      if (!(score < p || (score === p && i > (heap[parent] ?? 0)))) break;
      heap[at] = heap[parent] ?? 0;
      value[at] = p;
      at = parent;
    }
    heap[at] = i;
    value[at] = score;
  }
  for (let i = size; i < scores.length; i += 1) {
    const score = scores[i] ?? 0;
    const root = value[0] ?? 0;
    // Only a better score than the worst kept replaces it (an equal one has a later index).
    if (!(score > root)) continue;
    // Sift down from the root.
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (right < size) {
        const l = value[left] ?? 0;
        const r = value[right] ?? 0;
        if (r < l || (r === l && (heap[right] ?? 0) > (heap[left] ?? 0))) child = right;
      }
      const c = value[child] ?? 0;
      if (!(c < score || (c === score && (heap[child] ?? 0) > i))) break;
      heap[at] = heap[child] ?? 0;
      value[at] = c;
      at = child;
    }
    heap[at] = i;
    value[at] = score;
  }
  return Array.from(heap).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
}
