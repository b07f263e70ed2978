import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeWav as makeSampleWav } from '../src/adapters/ai/local/testing/audio';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Overrides the next answer (status, JSON or bytes). */
  failNext(status: number, body: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

type Handler = (request: RecordedRequest) => { status?: number; type: string; body: Buffer | string };

async function startFake(handler: Handler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  let failure: { status: number; body: unknown; headers: Record<string, string> } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const recorded = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      if (failure) {
        const { status, body, headers } = failure;
        failure = undefined;
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
        return;
      }
      const answer = handler(recorded);
      res.writeHead(answer.status ?? 200, { 'content-type': answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, body, headers = {}) {
      failure = { status, body, headers };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Bytes that start like an MP3 frame (what a TTS server returns). */
export const FAKE_MP3 = Buffer.concat([Buffer.from([0xff, 0xf3, 0x48, 0xc4]), Buffer.alloc(200, 0x55)]);

export const AZURE_FACE = {
  faceId: 'c5c24a82-6845-4031-9d5d-978df9175426',
  faceRectangle: { top: 54, left: 394, width: 78, height: 78 },
  faceAttributes: {
    age: 31,
    gender: 'female',
    emotion: { anger: 0, contempt: 0, disgust: 0, fear: 0, happiness: 0.98, neutral: 0.02, sadness: 0, surprise: 0 },
  },
};

export const AZURE_ANALYSIS = {
  categories: [{ name: 'people_', score: 0.81 }],
  description: { tags: ['person', 'indoor'], captions: [{ text: 'a person standing indoors', confidence: 0.72 }] },
  color: {
    dominantColorForeground: 'Black',
    dominantColorBackground: 'White',
    dominantColors: ['White', 'Black'],
    accentColor: '2B5C8A',
    isBWImg: false,
    isBwImg: false,
  },
  requestId: 'b5e2c3d4-0000-4000-8000-000000000000',
  metadata: { height: 600, width: 800, format: 'Jpeg' },
  modelVersion: '2021-05-01',
};

/** Speaks Azure's documented REST wire formats (speech, TTS, Face v1.0, Vision v3.2). */
export const startFakeAzure = () =>
  startFake((request) => {
    if (request.path === '/speech/recognition/conversation/cognitiveservices/v1')
      return {
        type: 'application/json',
        body: JSON.stringify({
          RecognitionStatus: 'Success',
          DisplayText: 'Hello from Azure.',
          Offset: 300000,
          Duration: 12000000,
        }),
      };
    if (request.path === '/cognitiveservices/v1') return { type: 'audio/mpeg', body: FAKE_MP3 };
    if (request.path === '/face/v1.0/detect') return { type: 'application/json', body: JSON.stringify([AZURE_FACE]) };
    if (request.path === '/vision/v3.2/analyze')
      return { type: 'application/json', body: JSON.stringify(AZURE_ANALYSIS) };
    return {
      status: 404,
      type: 'application/json',
      body: JSON.stringify({ error: { code: '404', message: 'Resource not found' } }),
    };
  });

/**
 * The environment that points every service of the `azure` AI provider at `fake` (speech to text, text to speech,
 * Face, Vision), with these keys (the fake takes any).
 */
export const fakeAzureEnv = (fake: FakeServer, keys: { speech: string; face: string; vision: string }) => ({
  AI_PROVIDER: 'azure',
  AZURE_SPEECH_KEY: keys.speech,
  AZURE_SPEECH_STT_ENDPOINT: fake.url,
  AZURE_SPEECH_TTS_ENDPOINT: fake.url,
  AZURE_FACE_ENDPOINT: fake.url,
  AZURE_FACE_KEY: keys.face,
  AZURE_VISION_ENDPOINT: fake.url,
  AZURE_VISION_KEY: keys.vision,
});

/** Speaks the OpenAI audio API wire format (/v1/audio/transcriptions, /v1/audio/speech). */
export const startFakeOpenAi = () =>
  startFake((request) => {
    if (request.path === '/v1/audio/transcriptions')
      return { type: 'application/json', body: JSON.stringify({ text: ' Hello from whisper. ' }) };
    if (request.path === '/v1/audio/speech') return { type: 'audio/mpeg', body: FAKE_MP3 };
    return { status: 404, type: 'application/json', body: JSON.stringify({ error: { message: 'not found' } }) };
  });

/** A valid 16-bit PCM WAV of silence of the given length (16 kHz mono by default). */
export const makeWav = (seconds: number, sampleRate = 16000, channels = 1): Buffer =>
  makeSampleWav(new Int16Array(Math.round(seconds * sampleRate) * channels), sampleRate, channels);

/** The last request a fake server received (fails the test when there is none). */
export function lastRequest(fake: FakeServer): RecordedRequest {
  const request = fake.requests.at(-1);
  if (!request) throw new Error('the fake server received no request');
  return request;
}
