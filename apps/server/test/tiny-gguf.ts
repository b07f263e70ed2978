/**
 * Writes a tiny but valid GGUF v3 model (ggml docs/gguf.md) of the `llama` architecture that llama.cpp loads and
 * generates from: 2 blocks, 32-dimensional embeddings, a SentencePiece-style vocabulary of the three control tokens,
 * the 256 byte tokens and a handful of words, fixed pseudo-random F32 weights. Its output is gibberish; the tests
 * use it to exercise loading, streaming, limits and cancellation without any downloaded weights.
 */
import { writeFileSync } from 'node:fs';

/** GGUF's alignment of the tensor data, its value types, and ggml's tensor types used here. */
export const GGUF_ALIGNMENT = 32;
const ALIGNMENT = GGUF_ALIGNMENT;
const GGUF_TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
export const GGML_F32 = 0;
export const GGML_Q8_0 = 8;

export type GgufValue =
  | { type: 'uint32' | 'int32' | 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; of: 'string'; value: string[] }
  | { type: 'array'; of: 'float32' | 'int32'; value: number[] };

type Value = GgufValue;

/** GGUF's little-endian building blocks, kept as a list of buffers (the bench writes its big tensors apart). */
export class GgufWriter {
  readonly chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer) {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  i32(n: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  u64(n: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  f32(n: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  str(s: string) {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad() {
    const rest = this.length % ALIGNMENT;
    if (rest) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
  value(v: Value) {
    switch (v.type) {
      case 'uint32':
        return this.u32(v.value);
      case 'int32':
        return this.i32(v.value);
      case 'float32':
        return this.f32(v.value);
      case 'bool':
        return this.push(Buffer.from([v.value ? 1 : 0]));
      case 'string':
        return this.str(v.value);
      case 'array':
        this.u32(GGUF_TYPE[v.of]);
        this.u64(v.value.length);
        for (const item of v.value) {
          if (typeof item === 'string') this.str(item);
          else if (v.of === 'int32') this.i32(item);
          else this.f32(item);
        }
    }
  }
  /** The file's start: magic, version 3, the counts and the metadata. */
  header(tensorCount: number, metadata: [string, Value][]) {
    this.push(Buffer.from('GGUF', 'ascii'));
    this.u32(3);
    this.u64(tensorCount);
    this.u64(metadata.length);
    for (const [key, value] of metadata) {
      this.str(key);
      this.u32(value.type === 'array' ? GGUF_TYPE.array : GGUF_TYPE[value.type]);
      this.value(value);
    }
  }
  /** One tensor's description: name, dimensions, ggml type and offset in the data. */
  tensorInfo(name: string, dims: number[], type: number, offset: number) {
    this.str(name);
    this.u32(dims.length);
    for (const dim of dims) this.u64(dim);
    this.u32(type);
    this.u64(offset);
  }
  toBuffer() {
    return Buffer.concat(this.chunks);
  }
}

/** A small linear congruential generator: the same weights every run. */
function weights(count: number, seed: number, scale: number): Float32Array {
  const out = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = (state / 0x1_0000_0000 - 0.5) * 2 * scale;
  }
  return out;
}

const WORDS = ['▁the', '▁a', '▁file', '▁answer', '▁is', '▁in', '▁report', '▁budget', '▁.', '▁[1]', '▁and', '▁of'];

/** The vocabulary: `<unk>`, `<s>`, `</s>`, the 256 byte tokens, then a few words. */
function vocabulary() {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3]; // unknown, control, control
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6); // byte
  }
  for (const word of WORDS) {
    tokens.push(word);
    types.push(1); // normal
  }
  const scores = tokens.map((_, i) => (i < 259 ? 0 : -i));
  return { tokens, types, scores };
}

export interface TinyGgufOptions {
  /** Written into `general.name`. */
  name?: string;
}

/** The bytes of a tiny llama-architecture GGUF v3 model. */
export function tinyGguf({ name = 'atrium-tiny-test' }: TinyGgufOptions = {}): Buffer {
  const nEmbd = 32;
  const nFf = 64;
  const nLayer = 2;
  const nHead = 4;
  const { tokens, types, scores } = vocabulary();
  const nVocab = tokens.length;

  const metadata: [string, Value][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: name }],
    ['general.alignment', { type: 'uint32', value: ALIGNMENT }],
    ['general.file_type', { type: 'uint32', value: 0 }],
    ['llama.context_length', { type: 'uint32', value: 512 }],
    ['llama.embedding_length', { type: 'uint32', value: nEmbd }],
    ['llama.block_count', { type: 'uint32', value: nLayer }],
    ['llama.feed_forward_length', { type: 'uint32', value: nFf }],
    ['llama.attention.head_count', { type: 'uint32', value: nHead }],
    ['llama.attention.head_count_kv', { type: 'uint32', value: nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'uint32', value: nEmbd / nHead }],
    ['llama.rope.freq_base', { type: 'float32', value: 10000 }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', value: tokens }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'float32', value: scores }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'int32', value: types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'uint32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'uint32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'uint32', value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
  ];

  // Tensor shapes in ggml order (ne0 first: the row length).
  const tensors: { name: string; dims: number[]; fill: 'ones' | 'random' }[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab], fill: 'random' },
    { name: 'output_norm.weight', dims: [nEmbd], fill: 'ones' },
    { name: 'output.weight', dims: [nEmbd, nVocab], fill: 'random' },
  ];
  for (let layer = 0; layer < nLayer; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      { name: `${blk}.attn_norm.weight`, dims: [nEmbd], fill: 'ones' },
      { name: `${blk}.attn_q.weight`, dims: [nEmbd, nEmbd], fill: 'random' },
      { name: `${blk}.attn_k.weight`, dims: [nEmbd, nEmbd], fill: 'random' },
      { name: `${blk}.attn_v.weight`, dims: [nEmbd, nEmbd], fill: 'random' },
      { name: `${blk}.attn_output.weight`, dims: [nEmbd, nEmbd], fill: 'random' },
      { name: `${blk}.ffn_norm.weight`, dims: [nEmbd], fill: 'ones' },
      { name: `${blk}.ffn_gate.weight`, dims: [nEmbd, nFf], fill: 'random' },
      { name: `${blk}.ffn_up.weight`, dims: [nEmbd, nFf], fill: 'random' },
      { name: `${blk}.ffn_down.weight`, dims: [nFf, nEmbd], fill: 'random' },
    );
  }

  const head = new GgufWriter();
  head.header(tensors.length, metadata);
  const data = new GgufWriter();
  tensors.forEach((tensor, index) => {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    head.tensorInfo(tensor.name, tensor.dims, GGML_F32, data.length);
    const values = tensor.fill === 'ones' ? new Float32Array(count).fill(1) : weights(count, index + 1, 0.5);
    data.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
    data.pad();
  });
  head.pad();
  return Buffer.concat([head.toBuffer(), data.toBuffer()]);
}

/** Writes the tiny model to `path` and answers its size in bytes. */
export function writeTinyGguf(path: string, options?: TinyGgufOptions): number {
  const bytes = tinyGguf(options);
  writeFileSync(path, bytes);
  return bytes.length;
}
