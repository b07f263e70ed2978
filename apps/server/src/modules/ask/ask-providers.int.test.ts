import { AskResponse } from '@atrium/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { callsAs, dialects, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';
import { uploadWithPassages } from '../../../test/ask-passages';

/**
 * Ask with the models an operator configures (docs/PRODUCT.md#ask-your-files): an OpenAI-compatible chat and
 * embeddings server on the team's network (here a loopback server speaking that wire format). The answer is written
 * by the model from the numbered passages the asker may read, streamed, and cited; passages get the provider's
 * vectors; nothing is sent to it for a question whose passages are not readable.
 */
describe.each(dialects())('ask with a configured provider (%s)', (dialect) => {
  let server: TestServer;
  let fake: FakeOpenAi;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    fake = await startFakeOpenAi({ dimensions: 8 });
    server = await startTestServer({
      dialect,
      env: {
        ANALYSIS_ENABLED: 'true',
        AI_CHAT_BASE_URL: fake.baseUrl,
        AI_CHAT_MODEL: 'team-chat',
        AI_EMBEDDINGS_BASE_URL: fake.baseUrl,
        AI_EMBEDDINGS_MODEL: 'team-embed',
        AI_EMBEDDINGS_DIMENSIONS: '8',
      },
    });
    Object.assign(cookies, await signInPeople(server, ['ana', 'ben']));
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  const { call, json } = callsAs(() => server, cookies);

  const upload = (who: string, name: string, content: string) =>
    uploadWithPassages(server, cookies[who], '', name, content);

  it('writes the answer with the team model, cited, streamed; passages carry its vectors', async () => {
    const file = await upload('ana', 'budget.md', 'The budget review is on Friday afternoon in room 4.');
    const answer = AskResponse.parse(
      await json(await call('ana', 'POST', '/api/ask', { question: 'When is the budget review?' })),
    );
    expect(answer.mode).toBe('generated');
    expect(answer.answer).toContain('The budget review is on Friday [1].');
    expect(answer.citations).toEqual([expect.objectContaining({ n: 1, fileId: file.id, fileName: 'budget.md' })]);
    // The model saw the question and the numbered passage, under the configured model's name.
    const chat = fake.requests.filter((request) => request.path.endsWith('/chat/completions')).at(-1);
    expect(chat?.body).toMatchObject({ model: 'team-chat', stream: true });
    expect(JSON.stringify(chat?.body.messages)).toContain('[1]');
    expect(JSON.stringify(chat?.body.messages)).toContain('Friday afternoon in room 4');
    // The passages were embedded by the provider.
    expect(fake.requests.some((request) => request.path.endsWith('/embeddings'))).toBe(true);
    const vectors = await sql<{ n: number }>`select count(*) as n from passages p
      join passage_vectors v on v.passage_id = p.passage_id
      where p.file_id = ${file.id}`.execute(server.app.database.db);
    expect(Number(vectors.rows[0]?.n)).toBeGreaterThan(0);

    const streamed = await server.fetch('/api/ask', {
      method: 'POST',
      headers: { cookie: cookies.ana ?? '', 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ question: 'When is the budget review?' }),
    });
    const events = (await streamed.text()).split('\n\n').filter(Boolean);
    // Each cited sentence as it is written, then the whole answer.
    expect(events[0]).toBe('event: delta\ndata: {"text":"The budget review is on Friday [1]."}');
    expect(events.at(-1)).toMatch(/^event: done/);
  });

  it('asks the model nothing for someone who may read none of the passages', async () => {
    const before = fake.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
    const answer = AskResponse.parse(
      await json(await call('ben', 'POST', '/api/ask', { question: 'When is the budget review?' })),
    );
    expect(answer.citations).toEqual([]);
    expect(fake.requests.filter((request) => request.path.endsWith('/chat/completions')).length).toBe(before);
  });

  it('answers from the passages alone when the provider is down', async () => {
    fake.behave({ kind: 'status', status: 503 });
    try {
      const answer = AskResponse.parse(
        await json(await call('ana', 'POST', '/api/ask', { question: 'When is the budget review?' })),
      );
      expect(answer.mode).toBe('extractive');
      expect(answer.answer).toContain('The budget review is on Friday afternoon in room 4. [1]');
    } finally {
      fake.behave({ kind: 'ok' });
    }
  });
});
