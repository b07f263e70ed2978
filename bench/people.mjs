// People in photos (docs/PRODUCT.md#people): face clustering quality on photos of known people, and the descriptor's
// cost. 10 known people × 5 photos each (augmentations of one face from face-api's demo photos: crops, mirror,
// exposure, scale; apps/server/test/people-fixtures.ts) go through the face engine with descriptors, in a shuffled but
// fixed order, then through the incremental clustering at several thresholds: pairwise precision and recall, and the
// number of people found. Time per photo with and without descriptors (the same worker, 1024 px inference).
//
// Usage: node scripts/run.mjs tsx bench/people.mjs
import { performance } from 'node:perf_hooks';
import { createFaceDetection } from '../apps/server/src/adapters/ai/local/face-detection.js';
import {
  clusterIncrementally,
  PEOPLE_MATCH_DISTANCE,
  pairwiseScores,
} from '../apps/server/src/modules/people/clustering.js';
import { knownPeoplePhotos } from '../apps/server/test/people-fixtures.js';

/** @param {number} x */
const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

const photos = await knownPeoplePhotos(10, 5);
// A fixed shuffle (photos of a person do not arrive together).
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const order = photos
  .map((photo) => ({ photo, key: random() }))
  .sort((a, b) => a.key - b.key)
  .map((x) => x.photo);

const engine = createFaceDetection();
await engine.warmUp();
const [first] = order;
if (first) await engine.detectFaces(first.jpeg, { descriptors: true }); // loads the recognition network
/** @type {number[]} */
const plain = [];
/** @type {number[]} */
const described = [];
/** @type {{ person: string, descriptor: number[] }[]} */
const faces = [];
for (const photo of order) {
  let t = performance.now();
  await engine.detectFaces(photo.jpeg);
  plain.push(performance.now() - t);
  t = performance.now();
  const found = await engine.detectFaces(photo.jpeg, { descriptors: true });
  described.push(performance.now() - t);
  // The largest face is the known person (a crop may show a bit of a neighbour).
  const face = found[0];
  if (face?.descriptor) faces.push({ person: photo.person, descriptor: face.descriptor });
}
await engine.close();

console.log(`photos: ${photos.length} (10 people × 5); faces with a descriptor: ${faces.length}`);
console.log(
  `time per photo (one face, median): detection ${round(median(plain), 0)} ms, with descriptor ${round(median(described), 0)} ms ` +
    `(+${round(median(described) - median(plain), 0)} ms per face)`,
);
console.log('threshold  precision  recall  people found');
for (const threshold of [0.4, 0.45, PEOPLE_MATCH_DISTANCE, 0.5, 0.55, 0.6]) {
  let next = 0;
  const predicted = clusterIncrementally(
    faces.map((f) => f.descriptor),
    [],
    () => `p${(next += 1)}`,
    threshold,
  );
  const { precision, recall } = pairwiseScores(
    faces.map((f) => f.person),
    predicted,
  );
  const mark = threshold === PEOPLE_MATCH_DISTANCE ? ' (default)' : '';
  console.log(`${threshold.toFixed(2)}${mark}  ${round(precision)}  ${round(recall)}  ${new Set(predicted).size}`);
}
