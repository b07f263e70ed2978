/**
 * Incremental face clustering (docs/PRODUCT.md#people): a new face joins the person of the nearest already-placed face
 * of the same space when their descriptors are closer than `PEOPLE_MATCH_DISTANCE` (Euclidean distance between
 * face-api's 128-number descriptors), or starts a new person. Nearest-face (single-link) matching lets a person's
 * faces drift across poses and lighting while each step stays close.
 *
 * The threshold is measured (bench/people.mjs, docs/BENCHMARKS.md): on 10 known people × 5 photos, photos of one
 * person were at most 0.44 apart and photos of two people at least 0.48; 0.46 sits between them.
 */
export const PEOPLE_MATCH_DISTANCE = 0.46;

export const DESCRIPTOR_LENGTH = 128;

export function descriptorDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`descriptors of different lengths (${a.length}, ${b.length})`);
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

export interface PlacedFace {
  personId: string;
  descriptor: readonly number[];
}

/** The person of the nearest placed face within `threshold`, or undefined (a new person). */
export function nearestPerson(
  descriptor: readonly number[],
  placed: readonly PlacedFace[],
  threshold = PEOPLE_MATCH_DISTANCE,
): string | undefined {
  let best: { personId: string; distance: number } | undefined;
  for (const face of placed) {
    const distance = descriptorDistance(descriptor, face.descriptor);
    if (distance < threshold && (best === undefined || distance < best.distance)) {
      best = { personId: face.personId, distance };
    }
  }
  return best?.personId;
}

/**
 * Clusters `descriptors` one after another (each joins the faces placed before it, its own earlier ones included),
 * answering each face's person; `newPerson()` names a new one. The same order as faces arriving photo by photo.
 */
export function clusterIncrementally(
  descriptors: readonly (readonly number[])[],
  placed: PlacedFace[],
  newPerson: () => string,
  threshold = PEOPLE_MATCH_DISTANCE,
): string[] {
  return descriptors.map((descriptor) => {
    const personId = nearestPerson(descriptor, placed, threshold) ?? newPerson();
    placed.push({ personId, descriptor });
    return personId;
  });
}

/** Pairwise precision and recall of a clustering against the truth (pairs of items put together / truly together). */
export function pairwiseScores(truth: readonly string[], predicted: readonly string[]) {
  let together = 0;
  let truePairs = 0;
  let both = 0;
  for (let i = 0; i < truth.length; i += 1) {
    for (let j = i + 1; j < truth.length; j += 1) {
      const same = truth[i] === truth[j];
      const put = predicted[i] === predicted[j];
      if (same) truePairs += 1;
      if (put) together += 1;
      if (same && put) both += 1;
    }
  }
  return { precision: together === 0 ? 1 : both / together, recall: truePairs === 0 ? 1 : both / truePairs };
}
