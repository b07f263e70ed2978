/** How passages' vectors and the index's centres are stored: little-endian float32, as bytes (migrations 0040, 0047). */
export const toVector = (bytes: Uint8Array): Float32Array => {
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
};
export const toBytes = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
