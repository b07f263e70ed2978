import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav, startFakeOpenAi, type FakeServer } from './fake-ai';
import { createAiApiKey, dialects, startTestServer, type TestServer } from './helpers';

const BOUNDARY = 'atrium-test-boundary';

/** A multipart body with one file field, as a browser would send it. */
const multipartBody = (bytes: Buffer, boundary = BOUNDARY) =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);

/** Bodies a client may get wrong, each with the content type it is sent with. */
const malformed = (file: Buffer): [string, string, Buffer][] => {
  const whole = multipartBody(file);
  return [
    ['no boundary', 'multipart/form-data', whole],
    ['another boundary', 'multipart/form-data; boundary=something-else', whole],
    ['garbage', `multipart/form-data; boundary=${BOUNDARY}`, Buffer.from('this is not a multipart body at all')],
    ['truncated', `multipart/form-data; boundary=${BOUNDARY}`, whole.subarray(0, Math.floor(whole.length / 2))],
    ['empty', `multipart/form-data; boundary=${BOUNDARY}`, Buffer.alloc(0)],
  ];
};

/**
 * Every multipart route answers a malformed form with 400 in the JSON error shape, stores nothing
 * and calls no engine.
 */
describe.each(dialects())('malformed multipart bodies (%s)', (dialect) => {
  let server: TestServer;
  let openai: FakeServer;
  let alice: string;
  let apiKey: string;

  beforeAll(async () => {
    openai = await startFakeOpenAi();
    server = await startTestServer({
      dialect,
      env: { AI_SPEECH_TO_TEXT_PROVIDER: 'openai', OPENAI_BASE_URL: openai.url },
    });
    alice = await server.signInAs({ owner_key: 'alice' });
    apiKey = await createAiApiKey(server);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  const routes = (): { path: string; headers: Record<string, string> }[] => [
    { path: '/api/files/upload?userId=alice', headers: { cookie: alice } },
    { path: '/api/ai/speech-to-text', headers: { cookie: alice } },
    { path: '/api/ai/face-detection', headers: { cookie: alice } },
    { path: '/v1/audio/transcriptions', headers: { authorization: `Bearer ${apiKey}` } },
  ];

  it('answers 400 in the error shape for a missing or wrong boundary, garbage and truncated forms', async () => {
    const before = openai.requests.length;
    const answers: string[] = [];
    for (const route of routes()) {
      for (const [what, type, body] of malformed(makeWav(1))) {
        const response = await server.fetch(route.path, {
          method: 'POST',
          headers: { ...route.headers, 'content-type': type },
          body,
        });
        const text = await response.text();
        // The OpenAI-compatible route answers in OpenAI's error shape (code `bad_request`).
        const code = response.status === 400 ? (JSON.parse(text) as { error: { code: string } }).error.code : text;
        answers.push(`${route.path} ${what}: ${response.status} ${code}`);
      }
    }
    expect(answers).toEqual(
      answers.map((line) => line.replace(/: .*$/, line.startsWith('/v1/') ? ': 400 bad_request' : ': 400 BAD_REQUEST')),
    );
    expect(openai.requests.length).toBe(before);
    const files = await server.fetch('/api/files/user-stats/alice', { headers: { cookie: alice } });
    expect(await files.json()).toMatchObject({ fileCount: 0 });
  });
});
