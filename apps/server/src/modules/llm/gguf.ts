/**
 * Reads the header and metadata of a GGUF file (ggml docs/gguf.md: magic `GGUF`, version, tensor and key counts,
 * then typed key–value pairs) to check an upload before it is kept (docs/PRODUCT.md#ai-models) and to learn its
 * architecture, name and embedding size. Nothing here runs the model.
 */
import { open } from 'node:fs/promises';

export const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');
/** The metadata of real models (a vocabulary of 150,000 tokens included) fits in far less. */
const MAX_METADATA_BYTES = 64 * 1024 * 1024;
const MAX_KEYS = 100_000;

export interface GgufInfo {
  version: number;
  tensorCount: number;
  architecture: string;
  name: string | null;
  embeddingLength: number | null;
  contextLength: number | null;
}

export class GgufError extends Error {}

/** Whether `head` (the first bytes of a file) starts like a GGUF file of a version llama.cpp reads (2 or 3). */
export function looksLikeGguf(head: Buffer): boolean {
  if (head.length < 8 || !head.subarray(0, 4).equals(GGUF_MAGIC)) return false;
  const version = head.readUInt32LE(4);
  return version === 2 || version === 3;
}

const SCALAR_SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

class Reader {
  offset = 0;
  constructor(private readonly buffer: Buffer) {}
  need(bytes: number) {
    if (this.offset + bytes > this.buffer.length) throw new GgufError('The GGUF metadata is cut short or too large.');
  }
  u32() {
    this.need(4);
    const value = this.buffer.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }
  u64() {
    this.need(8);
    const value = this.buffer.readBigUInt64LE(this.offset);
    this.offset += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError('A GGUF length is out of range.');
    return Number(value);
  }
  string() {
    const length = this.u64();
    this.need(length);
    const text = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return text;
  }
  /** A value of `type`: numbers and strings are answered, arrays skipped (null). */
  value(type: number): number | string | boolean | null {
    if (type === 8) return this.string();
    if (type === 9) {
      const itemType = this.u32();
      const count = this.u64();
      for (let i = 0; i < count; i++) this.value(itemType);
      return null;
    }
    const size = SCALAR_SIZES[type];
    if (size === undefined) throw new GgufError(`Unknown GGUF value type ${type}.`);
    this.need(size);
    const at = this.offset;
    this.offset += size;
    const b = this.buffer;
    switch (type) {
      case 0:
        return b.readUInt8(at);
      case 1:
        return b.readInt8(at);
      case 2:
        return b.readUInt16LE(at);
      case 3:
        return b.readInt16LE(at);
      case 4:
        return b.readUInt32LE(at);
      case 5:
        return b.readInt32LE(at);
      case 6:
        return b.readFloatLE(at);
      case 7:
        return b.readUInt8(at) !== 0;
      case 10:
        return Number(b.readBigUInt64LE(at));
      case 11:
        return Number(b.readBigInt64LE(at));
      default:
        return b.readDoubleLE(at);
    }
  }
}

/** Parses the header and metadata of the GGUF file at `path`; throws `GgufError` when it is not one. */
export async function readGgufInfo(path: string): Promise<GgufInfo> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, MAX_METADATA_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, 0);
    if (!looksLikeGguf(buffer)) throw new GgufError('This is not a GGUF model file (version 2 or 3).');
    const reader = new Reader(buffer);
    reader.offset = 4;
    const version = reader.u32();
    const tensorCount = reader.u64();
    const keyCount = reader.u64();
    if (keyCount > MAX_KEYS) throw new GgufError('The GGUF metadata has too many keys.');
    const metadata = new Map<string, number | string | boolean | null>();
    for (let i = 0; i < keyCount; i++) {
      const key = reader.string();
      metadata.set(key, reader.value(reader.u32()));
    }
    const architecture = metadata.get('general.architecture');
    if (typeof architecture !== 'string' || !architecture)
      throw new GgufError('The GGUF file names no architecture (general.architecture).');
    if (tensorCount === 0) throw new GgufError('The GGUF file holds no tensors.');
    const numberAt = (key: string) => {
      const value = metadata.get(key);
      return typeof value === 'number' ? value : null;
    };
    const name = metadata.get('general.name');
    return {
      version,
      tensorCount,
      architecture,
      name: typeof name === 'string' ? name : null,
      embeddingLength: numberAt(`${architecture}.embedding_length`),
      contextLength: numberAt(`${architecture}.context_length`),
    };
  } finally {
    await handle.close();
  }
}
