import { afterEach, describe, expect, it } from 'vitest';
import { readError, startTestServer, type TestServer } from '../../../test/helpers';

/** Capacity limits of the local engines, with the real text-to-speech engine (the quickest to load). */
describe('AI capacity limits', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const speak = (s: TestServer, cookie: string, text: string) =>
    s.fetch('/api/ai/text-to-speech', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });

  it('a job over AI_TIMEOUT_MS answers 504 with a clear message', { timeout: 60_000 }, async () => {
    server = await startTestServer({ env: { AI_TIMEOUT_MS: '1' } });
    const cookie = await server.signInAs({ owner_key: 'alice' });
    const response = await speak(server, cookie, 'This sentence takes longer than one millisecond to speak.');
    expect(response.status).toBe(504);
    expect(await readError(response)).toMatchObject({
      code: 'TIMEOUT',
      message: 'Text to speech took too long. Please try a shorter input.',
    });
  });

  it(
    'more waiting jobs than AI_QUEUE_LIMIT answer 503 with Retry-After; the others succeed',
    { timeout: 60_000 },
    async () => {
      server = await startTestServer({ env: { AI_QUEUE_LIMIT: '1' } });
      const cookie = await server.signInAs({ owner_key: 'alice' });
      const s = server;
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          speak(s, cookie, `Request number ${i} is waiting in the queue for its turn.`),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses).toContain(200);
      const busy = responses.filter((r) => r.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      for (const response of busy) {
        expect(response.headers.get('retry-after')).toBe('5');
        expect((await readError(response)).message).toBe('Text to speech is busy. Please try again in a moment.');
      }
      expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    },
  );
});
