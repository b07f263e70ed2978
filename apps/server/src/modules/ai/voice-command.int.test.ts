import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeechToTextResult } from '@atrium/contracts';
import { makeWav, startFakeOpenAi, type FakeServer } from '../../../test/fake-ai';
import { readError, startTestServer, type TestServer } from '../../../test/helpers';
import { VOICE_COMMAND_PATH, VOICE_COMMAND_RATE_MESSAGE } from './ai.routes';

/**
 * The voice assistant's server fallback for visitors without a session: short recordings,
 * rate-limited per client. Speech-to-text here is the OpenAI-compatible provider pointed at a
 * fake (the local engine's own test sends real speech to this endpoint).
 */
describe('public voice commands', () => {
  let openai: FakeServer;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    openai = await startFakeOpenAi();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await openai?.close();
  });

  const start = async (perMinute: number, databaseUrl?: string) => {
    const server = await startTestServer({
      ...(databaseUrl ? { databaseUrl } : {}),
      env: {
        AI_SPEECH_TO_TEXT_PROVIDER: 'openai',
        OPENAI_BASE_URL: openai.url,
        AI_VOICE_COMMANDS_PER_MINUTE: String(perMinute),
      },
    });
    servers.push(server);
    return server;
  };
  const send = (server: TestServer, body: Buffer | string, type = 'audio/wav') =>
    server.fetch(VOICE_COMMAND_PATH, { method: 'POST', headers: { 'content-type': type }, body });

  it('transcribes a short recording for a visitor who is not signed in', async () => {
    const server = await start(100);
    const before = openai.requests.length;
    const response = await send(server, makeWav(2));
    expect(response.status).toBe(200);
    const result = SpeechToTextResult.parse(await response.json());
    expect(result).toMatchObject({ RecognitionStatus: 'Success', DisplayText: 'Hello from whisper.' });
    expect(openai.requests.length).toBe(before + 1);
  });

  it('refuses empty, non-WAV, too long and too large recordings without calling the engine', async () => {
    const server = await start(100);
    const before = openai.requests.length;

    const empty = await send(server, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect((await readError(empty)).code).toBe('BAD_REQUEST');

    const text = await send(server, 'open files', 'text/plain');
    expect(text.status).toBe(415);

    const long = await send(server, makeWav(25));
    expect(long.status).toBe(413);
    expect((await readError(long)).message).toBe('The audio is 25.0 seconds long; the limit is 20 seconds.');

    const huge = await send(server, makeWav(40, 16000, 1).subarray(0, 1.2 * 1024 * 1024));
    expect(huge.status).toBe(413);
    expect((await readError(huge)).message).toBe('The voice recording is larger than 1 MB.');

    expect(openai.requests.length).toBe(before);
  });

  it('allows AI_VOICE_COMMANDS_PER_MINUTE per client, then 429 with Retry-After', async () => {
    const server = await start(2);
    const before = openai.requests.length;
    expect((await send(server, makeWav(1))).status).toBe(200);
    expect((await send(server, makeWav(1))).status).toBe(200);
    const refused = await send(server, makeWav(1));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await readError(refused)).toMatchObject({ code: 'RATE_LIMITED', message: VOICE_COMMAND_RATE_MESSAGE });
    expect(openai.requests.length).toBe(before + 2);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'counts across instances that share one PostgreSQL database',
    async () => {
      const a = await startTestServer({
        dialect: 'postgres',
        env: { AI_SPEECH_TO_TEXT_PROVIDER: 'openai', OPENAI_BASE_URL: openai.url, AI_VOICE_COMMANDS_PER_MINUTE: '2' },
      });
      servers.push(a);
      const b = await start(2, a.databaseUrl);
      expect((await send(a, makeWav(1))).status).toBe(200);
      expect((await send(b, makeWav(1))).status).toBe(200);
      expect((await send(a, makeWav(1))).status).toBe(429);
      expect((await send(b, makeWav(1))).status).toBe(429);
    },
  );
});
