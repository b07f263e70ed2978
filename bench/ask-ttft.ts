// Time to first token of "Ask your files" with the in-process model (docs/PRODUCT.md#ask-your-files,
// docs/PRODUCT.md#ai-models), through the product's own path: `createLlamaHost` (modules/llm/llama-host.ts), which
// runs node-llama-cpp in its child process. No real weights can be downloaded here, so this writes a GGUF with the
// exact shape of Qwen2-0.5B (24 blocks, hidden 896, 14 query heads / 2 KV heads, FFN 4864) in the `llama`
// architecture (Qwen2's attention biases left out), a 32,000-piece SentencePiece-style vocabulary, and random Q8_0
// weights. Speed does not depend on the weight values; the answers are gibberish and their quality is not judged.
//
// Measured, median of RUNS rounds: load (the first request's wait for the child to load the model), time to first
// token and tokens per second after it for a retrieval-sized prompt (~1,500 prompt tokens: 8 passages + a question),
// the child's resident set after loading and at its peak.
//
// Usage: node scripts/run.mjs tsx bench/ask-ttft.ts [runs=5] [threads=2] [maxTokens=64]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getLlama } from 'node-llama-cpp';
import { createLlamaHost } from '../apps/server/src/modules/llm/llama-host.js';
import {
  GGML_F32,
  GGML_Q8_0,
  GGUF_ALIGNMENT as ALIGNMENT,
  GgufWriter,
  type GgufValue,
} from '../apps/server/test/tiny-gguf.js';

const RUNS = Number(process.argv[2] ?? 5);
const THREADS = Number(process.argv[3] ?? 2);
const MAX_TOKENS = Number(process.argv[4] ?? 64);

/** Qwen2-0.5B's dimensions (its config.json), with a 32k vocabulary. */
const SHAPE = { nLayer: 24, nEmbd: 896, nHead: 14, nHeadKv: 2, nFf: 4864, nVocab: 32_000, context: 32_768 };

// ---- The model file, written with the tests' GGUF writer (Q8_0 tensors written in pieces) ----
/** The words of the prompt, so that they are single pieces as in a real tokenizer. */
const PASSAGE_WORDS =
  'the a an of to in and or is are was be by for on with as at from that this it its which each any all no not may shall will within days written notice party parties supplier contract agreement invoice invoices paid payment delivery office furniture leeds london budget report quarter revenue costs staff project plan meeting minutes team review risk schedule customer service terms termination clause renewal period year month week price prices total amount tax rate policy security access data files folder share shared user users account password change changes update updated version document documents page pages section sections question answer answers source sources cite cited passage passages number numbers first second third last next before after during between under over above below into out up down more less most least other same new old high low good best better'.split(
    ' ',
  );

function vocabulary() {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  const seen = new Set(tokens);
  const add = (piece: string) => {
    if (seen.has(piece) || tokens.length >= SHAPE.nVocab) return;
    seen.add(piece);
    tokens.push(piece);
    types.push(1);
  };
  for (const word of PASSAGE_WORDS) add(`▁${word}`);
  for (const mark of ['.', ',', '?', ':', '[', ']', '(', ')', '-', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0'])
    [mark, `▁${mark}`].forEach(add);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const a of letters) [a, `▁${a}`].forEach(add);
  for (const a of letters) for (const b of letters) [`${a}${b}`, `▁${a}${b}`].forEach(add);
  for (const a of letters)
    for (const b of letters)
      for (const c of letters) {
        add(`${a}${b}${c}`);
        add(`▁${a}${b}${c}`);
      }
  // Longer pieces score higher: the tokenizer prefers whole words.
  const scores = tokens.map((token, i) => (i < 259 ? 0 : token.length * 10 - i / SHAPE.nVocab));
  return { tokens, types, scores };
}

/** f16 bits of a small positive number (for the Q8_0 block scales). */
function f16(value: number) {
  const f = new Float32Array([value]);
  const bits = new Uint32Array(f.buffer)[0] ?? 0;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  return (exponent << 10) | ((bits >>> 13) & 0x3ff);
}

function writeModel(file: string) {
  const { tokens, types, scores } = vocabulary();
  const { nLayer, nEmbd, nHead, nHeadKv, nFf, nVocab, context } = SHAPE;
  const headDim = nEmbd / nHead;
  const kv = headDim * nHeadKv;
  const head = new GgufWriter();
  const u32 = (value: number): GgufValue => ({ type: 'uint32', value });
  const meta: [string, GgufValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'atrium-bench-qwen2-0.5b-shape-random-q8_0' }],
    ['general.alignment', u32(ALIGNMENT)],
    ['general.file_type', u32(7)], // MOSTLY_Q8_0
    ['llama.context_length', u32(context)],
    ['llama.embedding_length', u32(nEmbd)],
    ['llama.block_count', u32(nLayer)],
    ['llama.feed_forward_length', u32(nFf)],
    ['llama.attention.head_count', u32(nHead)],
    ['llama.attention.head_count_kv', u32(nHeadKv)],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-6 }],
    ['llama.rope.dimension_count', u32(headDim)],
    ['llama.rope.freq_base', { type: 'float32', value: 1_000_000 }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', value: tokens }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'float32', value: scores }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'int32', value: types }],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.bos_token_id', u32(1)],
    ['tokenizer.ggml.eos_token_id', u32(2)],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
  ];
  const tensors: { name: string; dims: number[]; type: number }[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab], type: GGML_Q8_0 },
    { name: 'output_norm.weight', dims: [nEmbd], type: GGML_F32 },
    { name: 'output.weight', dims: [nEmbd, nVocab], type: GGML_Q8_0 },
  ];
  for (let l = 0; l < nLayer; l++) {
    const blk = `blk.${l}`;
    tensors.push(
      { name: `${blk}.attn_norm.weight`, dims: [nEmbd], type: GGML_F32 },
      { name: `${blk}.attn_q.weight`, dims: [nEmbd, nEmbd], type: GGML_Q8_0 },
      { name: `${blk}.attn_k.weight`, dims: [nEmbd, kv], type: GGML_Q8_0 },
      { name: `${blk}.attn_v.weight`, dims: [nEmbd, kv], type: GGML_Q8_0 },
      { name: `${blk}.attn_output.weight`, dims: [nEmbd, nEmbd], type: GGML_Q8_0 },
      { name: `${blk}.ffn_norm.weight`, dims: [nEmbd], type: GGML_F32 },
      { name: `${blk}.ffn_gate.weight`, dims: [nEmbd, nFf], type: GGML_Q8_0 },
      { name: `${blk}.ffn_up.weight`, dims: [nEmbd, nFf], type: GGML_Q8_0 },
      { name: `${blk}.ffn_down.weight`, dims: [nFf, nEmbd], type: GGML_Q8_0 },
    );
  }
  const sizeOf = (t: { dims: number[]; type: number }) => {
    const count = t.dims.reduce((a, b) => a * b, 1);
    return t.type === GGML_F32 ? count * 4 : (count / 32) * 34;
  };
  head.header(tensors.length, meta);
  let offset = 0;
  for (const t of tensors) {
    head.tensorInfo(t.name, t.dims, t.type, offset);
    offset += sizeOf(t);
    offset += (ALIGNMENT - (offset % ALIGNMENT)) % ALIGNMENT;
  }
  head.pad();
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.concat(head.chunks));
  // Q8_0 blocks: an f16 scale, then 32 int8 values. Random values, a scale that keeps activations finite.
  const scale = f16(0.002);
  const random = randomBytes(34 * 32_768);
  for (let i = 0; i < random.length; i += 34) random.writeUInt16LE(scale, i);
  let parameters = 0;
  for (const t of tensors) {
    const bytes = sizeOf(t);
    parameters += t.dims.reduce((a, b) => a * b, 1);
    if (t.type === GGML_F32) writeSync(fd, Buffer.from(new Float32Array(bytes / 4).fill(1).buffer));
    else
      for (let done = 0; done < bytes; done += random.length)
        writeSync(fd, random, 0, Math.min(random.length, bytes - done));
    const rest = (ALIGNMENT - (bytes % ALIGNMENT)) % ALIGNMENT;
    if (rest) writeSync(fd, Buffer.alloc(rest));
  }
  closeSync(fd);
  return parameters;
}

// ---- The prompt: 8 retrieved passages and a question, as ask's answer step builds it ----
const SENTENCE_BANK = [
  'Either party may terminate the supplier contract with ninety days written notice.',
  'Invoices are paid within thirty days of delivery to the Leeds office.',
  'The budget report for the second quarter shows revenue up and costs within plan.',
  'The project team will review the risk schedule at each meeting before the next version.',
  'Access to shared files and folders changes when a user account is updated by the team.',
  'The renewal period is one year and the price may change after the first year of the agreement.',
];
function promptText(words: number) {
  const passages: string[] = [];
  let count = 0;
  for (let p = 1; count < words; p++) {
    const sentences: string[] = [];
    for (let s = 0; s < 6; s++) sentences.push(SENTENCE_BANK[(p + s) % SENTENCE_BANK.length] ?? '');
    const text = sentences.join(' ');
    count += text.split(' ').length;
    passages.push(`[${p}] report ${p}.txt: ${text}`);
  }
  return `Passages:\n${passages.join('\n')}\n\nQuestion: How can the supplier contract be terminated?`;
}
const SYSTEM =
  'Answer the question only from the numbered passages. Cite each passage you use as [n]. If they do not answer it, say so.';

/** The model child's pid: the only node child of this process running llama.child. */
function childPid(): number | undefined {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes('llama.child'));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}
const rssMb = (pid: number | undefined, field: 'VmRSS' | 'VmHWM') => {
  if (!pid) return NaN;
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const r = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

const dir = mkdtempSync(path.join(tmpdir(), 'atrium-ttft-'));
const modelFile = path.join(dir, 'qwen2-0.5b-shape-random-q8_0.gguf');
let started = performance.now();
const parameters = writeModel(modelFile);
console.error(
  `wrote ${modelFile}: ${r(statSync(modelFile).size / 2 ** 20)} MiB, ${r(parameters / 1e6)} M parameters in ${r((performance.now() - started) / 1000)} s`,
);

const prompt = promptText(680);
// The prompt's length in tokens, from the model's own vocabulary (loaded alone, in this process).
const vocabOnly = await (
  await getLlama({ gpu: false, build: 'never', usePrebuiltBinaries: true })
).loadModel({ modelPath: modelFile, vocabOnly: true });
const promptTokens = vocabOnly.tokenize(`${SYSTEM}\n${prompt}`).length;
await vocabOnly.dispose();
console.error(`prompt: ${promptTokens} tokens`);

const host = createLlamaHost({
  memoryBytes: 8 * 2 ** 30,
  timeoutMs: 600_000,
  idleUnloadMs: 0,
  threads: THREADS,
  contextSize: 4096,
  log: { warn: (details, message) => console.error(message, details) },
});

async function once(text: string, maxTokens: number) {
  const begin = performance.now();
  let first = NaN;
  let chunks = 0;
  let chars = 0;
  let sample = '';
  for await (const chunk of host.generate(modelFile, {
    system: SYSTEM,
    prompt: text,
    maxTokens,
    signal: AbortSignal.timeout(600_000),
  })) {
    if (Number.isNaN(first)) first = performance.now();
    chunks++;
    chars += chunk.length;
    if (sample.length < 60) sample += chunk;
  }
  const end = performance.now();
  return { ttft: first - begin, total: end - begin, chunks, chars, after: end - first, sample };
}

const rows: string[] = [];
try {
  // Load: the first request waits for the child to load the model; a 1-token answer to a short question.
  started = performance.now();
  const warm = await once('Hello?', 1);
  const loadMs = warm.total;
  const pid = childPid();
  const rssLoaded = rssMb(pid, 'VmRSS');
  console.error(`load + 1 token: ${r(loadMs)} ms; child ${pid}, RSS ${r(rssLoaded)} MiB`);

  const ttft: number[] = [];
  const rate: number[] = [];
  const loads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const result = await once(prompt, MAX_TOKENS);
    ttft.push(result.ttft);
    // Each chunk is one token's text (node-llama-cpp's onTextChunk); the first chunk ends the prompt's evaluation.
    rate.push(((result.chunks - 1) / result.after) * 1000);
    console.error(
      `run ${run + 1}: first token ${r(result.ttft)} ms, ${result.chunks} chunks in ${r(result.after)} ms after it, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; sample ${JSON.stringify(result.sample.slice(0, 40))}`,
    );
  }
  const peakBeforeUnload = rssMb(pid, 'VmHWM');
  // Load again from cold (the page cache is warm: this is the loading of an already-read file).
  for (let run = 0; run < 1; run++) {
    await host.unload();
    const cold = await once('Hello?', 1);
    loads.push(cold.total);
  }
  const rssPeak = Math.max(peakBeforeUnload, rssMb(childPid(), 'VmHWM'));
  const promptChars = prompt.length + SYSTEM.length;
  rows.push(
    `| shape | Qwen2-0.5B (24 × 896, 14/2 heads, FFN 4864), vocab 32,000, random Q8_0 |`,
    `| file | ${r(statSync(modelFile).size / 2 ** 20)} MiB, ${r(parameters / 1e6)} M parameters |`,
    `| prompt | ${promptTokens} tokens, ${promptChars} characters (passages + question, system text), ≤ ${MAX_TOKENS} tokens answered, ${THREADS} threads, context 4096 |`,
    `| load (first request, 1 token; then again after unloading) | ${r(loadMs)} ms; ${loads.map((l) => `${r(l)} ms`).join(', ')} |`,
    `| time to first token, median of ${RUNS} | ${r(median(ttft))} ms (runs: ${ttft.map((v) => r(v, 0)).join(', ')}) |`,
    `| tokens/s after the first, median | ${r(median(rate), 2)} (runs: ${rate.map((v) => r(v, 2)).join(', ')}) |`,
    `| child RSS after load / peak | ${r(rssLoaded)} MiB / ${r(rssPeak)} MiB |`,
    `| load average at the end | ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} |`,
  );
  console.log(rows.join('\n'));
} finally {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
}
