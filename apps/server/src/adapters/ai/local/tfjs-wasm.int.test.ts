import { beforeAll, describe, expect, it } from 'vitest';
import { initTfjsWasm, type Tf } from './tfjs-wasm.js';

let tf: Tf;
beforeAll(async () => {
  tf = await initTfjsWasm('tests');
});

/** Values 0, 1, 2, … in the given shape. */
const iota = (shape: number[], dtype: 'float32' | 'int32' = 'float32') =>
  tf.tensor(
    Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i),
    shape,
    dtype,
  );

/** Reference concatenation on nested arrays. */
function concatRef(parts: unknown[], axis: number): unknown {
  if (axis === 0) return (parts as unknown[][]).flat(1);
  const first = parts[0] as unknown[];
  return first.map((_, i) =>
    concatRef(
      (parts as unknown[][]).map((p) => p[i]),
      axis - 1,
    ),
  );
}

describe('TensorFlow.js wasm backend with Atrium’s Concat and Slice kernels', () => {
  it('concatenates along every axis like the definition, for small and large inner sizes', () => {
    for (const shape of [
      [2, 3, 4, 1],
      [3, 5, 7, 2],
      [1, 4, 40, 3],
    ]) {
      for (let axis = 0; axis < shape.length; axis++) {
        for (const dtype of ['float32', 'int32'] as const) {
          const other = [...shape];
          other[axis] = (other[axis] ?? 1) + 1;
          const a = iota(shape, dtype);
          const b = tf.add(iota(other, dtype), 1000);
          const c = iota(shape, dtype);
          const expected = concatRef([a.arraySync(), b.arraySync(), c.arraySync()], axis);
          expect(tf.concat([a, b, c], axis).arraySync()).toEqual(expected);
          expect(tf.concat([a, b, c], axis - shape.length).arraySync()).toEqual(expected);
        }
      }
    }
  });

  it('slices boxes with all channels, and every other slice, like the definition', () => {
    const image = iota([9, 11, 3], 'int32');
    const pixels = image.arraySync() as number[][][];
    const cases: [number[], number[]][] = [
      [
        [2, 3, 0],
        [4, 5, 3],
      ],
      [
        [0, 0, 0],
        [9, 11, 3],
      ],
      [
        [8, 10, 0],
        [1, 1, -1],
      ],
      [
        [1, 2, 1],
        [3, 3, 2],
      ], // not all channels: original kernel
      [
        [1, 2, 0],
        [-1, 4, 3],
      ], // size -1: original kernel
    ];
    for (const [begin, size] of cases) {
      const [y = 0, x = 0, c = 0] = begin;
      const h = size[0] === -1 ? 9 - y : (size[0] ?? 0);
      const w = size[1] === -1 ? 11 - x : (size[1] ?? 0);
      const cs = size[2] === -1 ? 3 - c : (size[2] ?? 0);
      const expected = pixels.slice(y, y + h).map((row) => row.slice(x, x + w).map((p) => p.slice(c, c + cs)));
      expect(tf.slice(image, begin, size).arraySync()).toEqual(expected);
    }
  });
});
