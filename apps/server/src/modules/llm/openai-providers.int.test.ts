import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAppError } from '../../errors';
import { fakeVector, startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { freePort, startTestServer, type TestServer } from '../../../test/helpers';
import { createOpenAiEmbedder, createOpenAiGenerator } from './openai-providers';

/**
 * OpenAI-compatible chat and embeddings providers (README, "AI") against a fake provider on loopback that speaks
 * the documented wire format: streamed answers, embeddings, and every way a provider fails (an error status, down,
 * a stalled stream, an unreadable one) as an AppError the routes turn into a JSON 502/503, never a hang.
 */
/** The value, failing the test when it is missing. */
function given<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value');
  return value;
}
let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ dimensions: 8 });
});
afterAll(async () => fake?.close());

const endpoint = () => ({ baseUrl: fake.baseUrl, model: 'fake-chat', apiKey: 'sk-test', dimensions: 0 });
const ask = (signal = new AbortController().signal) => ({
  system: 'Answer from the passages.',
  prompt: 'When is the budget review?',
  signal,
  maxTokens: 64,
});
async function collect(stream: AsyncIterable<string>) {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}
async function failureOf(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('OpenAI-compatible providers', () => {
  it('streams a chat answer chunk by chunk and sends the model, key, messages and limit', async () => {
    fake.behave({ kind: 'ok' });
    const generator = createOpenAiGenerator(endpoint(), { timeoutMs: 10_000 });
    expect(generator.label).toBe(`fake-chat (${new URL(fake.baseUrl).host})`);
    const chunks = await collect(generator.stream(ask()));
    expect(chunks).toEqual(fake.answerWords);
    const sent = given(fake.requests.at(-1));
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({
      model: 'fake-chat',
      stream: true,
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'Answer from the passages.' },
        { role: 'user', content: 'When is the budget review?' },
      ],
    });
  });

  it('stops reading and closes the stream when cancelled', async () => {
    fake.behave({ kind: 'ok' });
    const before = fake.abandoned;
    const controller = new AbortController();
    const chunks: string[] = [];
    for await (const chunk of createOpenAiGenerator(endpoint(), { timeoutMs: 10_000 }).stream(ask(controller.signal))) {
      chunks.push(chunk);
      if (chunks.length === 2) controller.abort();
    }
    expect(chunks).toEqual(fake.answerWords.slice(0, 2));
    await vi.waitFor(() => expect(fake.abandoned).toBe(before + 1));
  });

  it('embeds texts in order and learns the dimensions from the first answer', async () => {
    fake.behave({ kind: 'ok' });
    const embedder = createOpenAiEmbedder({ ...endpoint(), model: 'fake-embed' }, 0, { timeoutMs: 10_000 });
    expect(embedder.dimensions).toBe(0);
    const vectors = await embedder.embed(['budget review', 'termination clause']);
    expect(vectors.map((v) => [...v])).toEqual(
      ['budget review', 'termination clause'].map((text) => fakeVector(text, 8).map(Math.fround)),
    );
    expect(embedder.dimensions).toBe(8);
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/embeddings',
      body: { model: 'fake-embed', input: ['budget review', 'termination clause'] },
    });
    // Vectors of another length than configured are refused.
    const strict = createOpenAiEmbedder(endpoint(), 384, { timeoutMs: 10_000 });
    const error = await failureOf(strict.embed(['x']));
    expect(isAppError(error) && error.code).toBe('UPSTREAM_FAILED');
  });

  it.each([
    [{ kind: 'status', status: 500 } as const, 'SERVICE_UNAVAILABLE', /answered 500: The fake provider is overloaded/],
    [{ kind: 'status', status: 429 } as const, 'SERVICE_UNAVAILABLE', /answered 429/],
    [{ kind: 'status', status: 404 } as const, 'UPSTREAM_FAILED', /answered 404/],
    [{ kind: 'garbage' } as const, 'UPSTREAM_FAILED', /not valid JSON/],
    [{ kind: 'cut' } as const, 'UPSTREAM_FAILED', /without \[DONE\]/],
    [{ kind: 'stall' } as const, 'SERVICE_UNAVAILABLE', /stopped sending/],
    [{ kind: 'hang' } as const, 'SERVICE_UNAVAILABLE', /stopped sending/],
  ])('turns a provider that answers %o into %s', async (behaviour, code, message) => {
    fake.behave(behaviour);
    const error = await failureOf(collect(createOpenAiGenerator(endpoint(), { timeoutMs: 5_000 }).stream(ask())));
    fake.behave({ kind: 'ok' });
    expect(isAppError(error) && error.code).toBe(code);
    expect((error as Error).message).toMatch(message);
  });

  it('answers 503 when the provider is down, for chat and embeddings', async () => {
    const down = { ...endpoint(), baseUrl: `http://127.0.0.1:${await freePort()}/v1` };
    const chat = await failureOf(collect(createOpenAiGenerator(down, { timeoutMs: 5_000 }).stream(ask())));
    expect(isAppError(chat) && chat.code).toBe('SERVICE_UNAVAILABLE');
    expect((chat as Error).message).toMatch(/cannot be reached/);
    const embed = await failureOf(createOpenAiEmbedder(down, 0, { timeoutMs: 5_000 }).embed(['x']));
    expect(isAppError(embed) && embed.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('the configured providers', () => {
  let configured: TestServer;
  let unconfigured: TestServer;
  beforeAll(async () => {
    configured = await startTestServer({
      env: {
        AI_CHAT_BASE_URL: fake.baseUrl,
        AI_CHAT_MODEL: 'fake-chat',
        AI_EMBEDDINGS_BASE_URL: fake.baseUrl,
        AI_EMBEDDINGS_MODEL: 'fake-embed',
        AI_EMBEDDINGS_DIMENSIONS: '8',
      },
    });
    unconfigured = await startTestServer();
  });
  afterAll(async () => {
    await configured?.close();
    await unconfigured?.close();
  });

  it('answers with the provider when configured, and with nothing by default', async () => {
    fake.behave({ kind: 'ok' });
    const generator = configured.app.llm.currentGenerator();
    expect(generator?.label).toMatch(/^fake-chat/);
    expect((await collect(given(generator).stream(ask()))).join('')).toBe(fake.answerWords.join(''));
    const embedder = configured.app.llm.currentEmbedder();
    expect(embedder?.dimensions).toBe(8);
    expect(await given(embedder).embed(['a'])).toHaveLength(1);
    expect(unconfigured.app.llm.currentGenerator()).toBeNull();
    expect(unconfigured.app.llm.currentEmbedder()).toBeNull();
  });
});
