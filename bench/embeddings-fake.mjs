// An OpenAI-compatible embeddings server on loopback for the benches (no model, no network): `POST /v1/embeddings`
// with `{ "model", "input": string | string[] }` answers `{ "object": "list", "data": [{ "object": "embedding",
// "index", "embedding" }], "model", "usage": { "prompt_tokens", "total_tokens" } }` as OpenAI documents it; a request
// it cannot read gets OpenAI's error shape (`{ "error": { "message", "type", "param", "code" } }`) with a 4xx status.
// The server calls `${AI_EMBEDDINGS_BASE_URL}/embeddings` (modules/llm/openai-providers.ts), so its base URL is this
// fake's `baseUrl`, which ends in `/v1`, as Ollama's and OpenAI's do.
// The vectors are a deterministic "hashed bag of words": the text lower-cased, cut at every character that is not a
// letter or a digit, words of fewer than 3 characters dropped; each word has a pseudo-random vector of independent
// standard normal components (Box–Muller over a PRNG seeded by the word's FNV-1a hash), summed over the words and
// scaled to length 1. Texts sharing words are near, texts without any common word are nearly orthogonal: enough for
// retrieval to find something and for its cost to be measured, nothing like a real model's quality.
// `embedText` gives the same vectors in process (a bench fills its rows with them, then the server embeds questions
// through the HTTP server). Alone: `node bench/embeddings-fake.mjs [port=3329] [dimensions=384]`.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_DIMENSIONS = 384;
/** Largest request body read (a batch of passages is far smaller). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** 32-bit FNV-1a of a string's UTF-16 code units. @param {string} text */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: uniform numbers in [0, 1) from a 32-bit seed. @param {number} seed */
function prng(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each word's vector, per dimension count. @type {Map<number, Map<string, Float64Array>>} */
const wordVectors = new Map();

/**
 * The word's pseudo-random vector: `dimensions` independent standard normal components (Box–Muller).
 * @param {string} word @param {number} dimensions
 */
function wordVector(word, dimensions) {
  let cache = wordVectors.get(dimensions);
  if (!cache) wordVectors.set(dimensions, (cache = new Map()));
  let vector = cache.get(word);
  if (vector) return vector;
  vector = new Float64Array(dimensions);
  const random = prng(fnv1a(word));
  for (let i = 0; i < dimensions; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    vector[i] = radius * Math.cos(angle);
    if (i + 1 < dimensions) vector[i + 1] = radius * Math.sin(angle);
  }
  cache.set(word, vector);
  return vector;
}

/** The text's pieces between characters that are not letters or digits, lower-cased. @param {string} text */
const tokensOf = (text) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The text's vector: the sum of its words' vectors (words of 3 characters or more), of length 1. A text without such
 * a word gets the vector of the empty word, so every vector has length 1.
 * @param {string} text @param {number} [dimensions]
 * @returns {Float32Array}
 */
export function embedText(text, dimensions = DEFAULT_DIMENSIONS) {
  const sum = new Float64Array(dimensions);
  const words = tokensOf(text).filter((word) => word.length >= 3);
  for (const word of words.length > 0 ? words : ['']) {
    const vector = wordVector(word, dimensions);
    for (let i = 0; i < dimensions; i++) sum[i] = (sum[i] ?? 0) + (vector[i] ?? 0);
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += (sum[i] ?? 0) ** 2;
  norm = Math.sqrt(norm) || 1;
  const result = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) result[i] = (sum[i] ?? 0) / norm;
  return result;
}

/**
 * Answers JSON.
 * @param {http.ServerResponse} res @param {number} status @param {unknown} body
 */
function sendJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * OpenAI's error answer.
 * @param {http.ServerResponse} res @param {number} status @param {string} message @param {string | null} [param]
 */
const sendError = (res, status, message, param = null) =>
  sendJson(res, status, {
    error: { message, type: status === 404 ? 'not_found_error' : 'invalid_request_error', param, code: null },
  });

/**
 * Starts the fake on 127.0.0.1:`port` (0: any free port). `requests`: embeddings requests answered so far, `texts`:
 * the texts they held; `close()` stops it.
 * @param {{ port?: number, dimensions?: number }} [options]
 * @returns {Promise<{ baseUrl: string, readonly requests: number, readonly texts: number, close(): Promise<void> }>}
 */
export async function startEmbeddingsFake({ port = 0, dimensions = DEFAULT_DIMENSIONS } = {}) {
  let requests = 0;
  let texts = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/v1/embeddings') return sendError(res, 404, `Unknown path ${url.pathname}.`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendError(res, 405, `${req.method} is not allowed here: POST.`);
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return sendError(res, 413, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
      /** @type {unknown} */
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return sendError(res, 400, 'The body is not valid JSON.');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return sendError(res, 400, 'The body must be a JSON object.');
      const { model, input, encoding_format: encoding = 'float' } = /** @type {Record<string, unknown>} */ (body);
      if (input === undefined) return sendError(res, 400, "Missing required parameter: 'input'.", 'input');
      if (typeof model !== 'string' || model === '')
        return sendError(res, 400, "Missing required parameter: 'model'.", 'model');
      const inputs = typeof input === 'string' ? [input] : input;
      if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((text) => typeof text === 'string'))
        return sendError(res, 400, "'input' must be a string or a non-empty array of strings.", 'input');
      if (encoding !== 'float' && encoding !== 'base64')
        return sendError(res, 400, "'encoding_format' must be 'float' or 'base64'.", 'encoding_format');
      requests += 1;
      texts += inputs.length;
      let tokens = 0;
      const data = inputs.map((text, index) => {
        tokens += tokensOf(text).length;
        const vector = embedText(text, dimensions);
        return {
          object: 'embedding',
          index,
          embedding:
            encoding === 'base64'
              ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
              : Array.from(vector),
        };
      });
      sendJson(res, 200, { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    baseUrl: `http://127.0.0.1:${bound}/v1`,
    get requests() {
      return requests;
    },
    get texts() {
      return texts;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const fake = await startEmbeddingsFake({
    port: Number(process.argv[2] ?? 3329),
    dimensions: Number(process.argv[3] ?? DEFAULT_DIMENSIONS),
  });
  console.log(`embeddings at ${fake.baseUrl}/embeddings (AI_EMBEDDINGS_BASE_URL=${fake.baseUrl})`);
}
