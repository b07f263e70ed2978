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

/** Whether score `i` ranks before score `j`: higher first, then the earlier index. */
const before = (scores: Float64Array, i: number, j: number) =>
  (scores[i] ?? 0) > (scores[j] ?? 0) || ((scores[i] ?? 0) === (scores[j] ?? 0) && i < j);

/**
 * The indexes of the `count` highest of `scores`, highest first (ties: the earlier index first), so the first k of a
 * larger count are the same k. A heap of `count` keeps them: 300,000 scores are not sorted to find the best 100.
 */
export function bestFirst(scores: Float64Array, count: number): number[] {
  const size = Math.min(count, scores.length);
  if (size <= 0) return [];
  // A heap whose root is the worst index kept.
  const heap: number[] = [];
  const worse = (a: number, b: number) => before(scores, b, a);
  const up = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(heap[at] ?? 0, heap[parent] ?? 0)) return;
      [heap[at], heap[parent]] = [heap[parent] ?? 0, heap[at] ?? 0];
      at = parent;
    }
  };
  const down = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && worse(heap[left] ?? 0, heap[worst] ?? 0)) worst = left;
      if (right < heap.length && worse(heap[right] ?? 0, heap[worst] ?? 0)) worst = right;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst] ?? 0, heap[at] ?? 0];
      at = worst;
    }
  };
  for (let i = 0; i < scores.length; i += 1) {
    if (heap.length < size) {
      heap.push(i);
      up(heap.length - 1);
    } else if (before(scores, i, heap[0] ?? 0)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort((a, b) => (before(scores, a, b) ? -1 : 1));
}
