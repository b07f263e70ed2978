;; The dot products of Ask's vector copy in memory (vector-dot.ts, docs/PRODUCT.md#ask-your-files), with SIMD.
;; Its bytes are in vector-dot.ts; vector-dot.test.ts checks they are this file's (wabt's wat2wasm).
;;
;; dots(codes, stride, entries, count, query, out): for k < count,
;;   out[k] = sum over i < stride of codes[entries[k] * stride + i] * query[i]
;; codes: one signed byte per dimension, `stride` bytes a vector (a multiple of 16, zero-padded);
;; entries: `count` i32 entry numbers; query: `stride` i16; out: `count` i32. Addresses in bytes.
;; |sum| <= |code vector| * |query| (Cauchy-Schwarz): 127 * 32767 * sqrt(stride), inside i32 up to stride 4096.
(module
  (import "env" "memory" (memory 1))
  (func (export "dots")
    (param $codes i32) (param $stride i32) (param $entries i32) (param $count i32) (param $query i32) (param $out i32)
    (local $k i32) (local $base i32) (local $i i32) (local $acc v128) (local $c v128) (local $q i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
        (local.set $base
          (i32.add (local.get $codes)
            (i32.mul
              (i32.load (i32.add (local.get $entries) (i32.shl (local.get $k) (i32.const 2))))
              (local.get $stride))))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (block $row
          (loop $lanes
            (br_if $row (i32.ge_u (local.get $i) (local.get $stride)))
            (local.set $c (v128.load (i32.add (local.get $base) (local.get $i))))
            (local.set $q (i32.add (local.get $query) (i32.shl (local.get $i) (i32.const 1))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $c)) (v128.load (local.get $q)))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $c)) (v128.load offset=16 (local.get $q)))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $lanes)))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each)))))
