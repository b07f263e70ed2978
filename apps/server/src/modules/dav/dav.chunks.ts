/**
 * Text written straight into buffers of about `size` bytes, for a multistatus of 10,000 entries: each entry is
 * encoded as it is written, instead of joining 7.5 MB of entries into strings that are then flattened and encoded
 * again as a whole. A buffer handed out is never written again (the socket may still hold it).
 */
export function createChunker(size: number) {
  let buffer = Buffer.allocUnsafe(size);
  let used = 0;
  return {
    /** Writes `text`; answers the full chunk it had to close first (the text would not fit), if any. */
    write(text: string): Buffer | undefined {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair 4 for its 2): room for the worst case,
      // as Buffer#write silently stops at the end of the buffer.
      const room = text.length * 3;
      let full: Buffer | undefined;
      if (room > buffer.length - used) {
        if (used > 0) full = buffer.subarray(0, used);
        buffer = Buffer.allocUnsafe(Math.max(size, room));
        used = 0;
      }
      used += buffer.write(text, used);
      return full;
    },
    /** What was written since the last full chunk (the end of the answer). */
    rest(): Buffer {
      const last = buffer.subarray(0, used);
      buffer = Buffer.allocUnsafe(size);
      used = 0;
      return last;
    },
  };
}
