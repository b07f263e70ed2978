import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AiModelList, AiModelRecord, AuditPage } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';
import { tinyGguf } from '../../../test/tiny-gguf';

/**
 * `/api/admin/ai/models` (docs/PRODUCT.md#ai-models): an admin uploads a GGUF model (here a tiny one the test
 * writes), selects it for answers or embeddings, which then run in-process; junk and oversized uploads are refused
 * with 4xx; every change is audited.
 */
const MAX_BYTES = 1024 * 1024;

/** The value, failing the test when it is missing. */
function given<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value');
  return value;
}

describe.each(dialects())('AI models (%s)', (dialect) => {
  let server: TestServer;
  let admin: string;
  const upload = (content: Uint8Array, name = 'tiny.gguf', cookie = admin) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    return server.fetch('/api/admin/ai/models', { method: 'POST', headers: { cookie }, body: form });
  };
  const modelsDir = () => path.join(server.dataDir, 'models');

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { AI_MODEL_MAX_BYTES: String(MAX_BYTES) } });
    admin = await server.signInAs({ owner_key: 'models-admin', role: 'admin' });
  });
  afterAll(async () => server?.close());

  it('uploads, selects for answers and embeddings, runs, and deletes a GGUF model', async () => {
    expect(await expectJson<AiModelList>(sendJson(server, admin, 'GET', '/api/admin/ai/models'))).toEqual({
      models: [],
      chat: { kind: 'none', label: null },
      embeddings: { kind: 'none', label: null },
      maxUploadBytes: MAX_BYTES,
    });
    const bytes = tinyGguf();
    const created = await expectJson<AiModelRecord>(upload(bytes, 'Tiny Llama.gguf'), 201);
    expect(created).toMatchObject({
      name: 'Tiny Llama.gguf',
      sizeBytes: bytes.length,
      architecture: 'llama',
      embeddingLength: 32,
      contextLength: 512,
      role: null,
      uploadedBy: 'models-admin',
    });
    expect(readdirSync(modelsDir())).toEqual([`${created.id}.gguf`]);
    expect(server.app.llm.currentGenerator()).toBeNull();

    const chat = await expectJson<AiModelRecord>(
      sendJson(server, admin, 'PUT', `/api/admin/ai/models/${created.id}/role`, { role: 'chat' }),
    );
    expect(chat.role).toBe('chat');
    const generator = server.app.llm.currentGenerator();
    expect(generator?.label).toBe('Tiny Llama.gguf');
    const chunks: string[] = [];
    for await (const chunk of given(generator).stream({
      system: 'Answer from the passages.',
      prompt: 'When is the budget review?',
      signal: new AbortController().signal,
      maxTokens: 8,
    }))
      chunks.push(chunk);
    expect(chunks.join('').length).toBeGreaterThan(0);
    expect(server.app.llm.loadedModel()).toContain(created.id);

    // The same model for embeddings instead: it is no longer the chat model.
    await expectJson(sendJson(server, admin, 'PUT', `/api/admin/ai/models/${created.id}/role`, { role: 'embeddings' }));
    expect(server.app.llm.currentGenerator()).toBeNull();
    const embedder = server.app.llm.currentEmbedder();
    expect(embedder?.dimensions).toBe(32);
    const vectors = await given(embedder).embed(['budget review']);
    expect(vectors[0]).toHaveLength(32);
    const list = await expectJson<AiModelList>(sendJson(server, admin, 'GET', '/api/admin/ai/models'));
    expect(list.embeddings).toEqual({ kind: 'model', label: 'Tiny Llama.gguf' });
    expect(list.chat).toEqual({ kind: 'none', label: null });

    const removed = await expectJson<AiModelRecord>(
      sendJson(server, admin, 'DELETE', `/api/admin/ai/models/${created.id}`),
    );
    expect(removed.id).toBe(created.id);
    expect(server.app.llm.currentEmbedder()).toBeNull();
    expect(server.app.llm.loadedModel()).toBeNull();
    expect(existsSync(path.join(modelsDir(), `${created.id}.gguf`))).toBe(false);
    const again = await sendJson(server, admin, 'DELETE', `/api/admin/ai/models/${created.id}`);
    expect(again.status).toBe(404);
    expect(await readError(again)).toMatchObject({ code: 'NOT_FOUND', message: 'There is no such model.' });

    const audit = await expectJson<AuditPage>(sendJson(server, admin, 'GET', '/api/admin/audit'));
    const actions = audit.entries.filter((e) => e.target === `ai_model:${created.id}`).map((e) => e.action);
    expect(actions.sort()).toEqual(['ai_model.deleted', 'ai_model.selected', 'ai_model.selected', 'ai_model.uploaded']);
  });

  it('refuses junk, cut-short and oversized uploads with 4xx and keeps nothing', async () => {
    const header = Buffer.alloc(24);
    header.write('GGUF', 0, 'ascii');
    header.writeUInt32LE(3, 4);
    const cases: [Uint8Array, number, string][] = [
      [Buffer.from('this is a text file, not a model'), 415, 'This is not a GGUF model file.'],
      [Buffer.from('GG'), 415, 'This is not a GGUF model file.'],
      [
        Buffer.concat([Buffer.from('GGUF'), Buffer.from([9, 0, 0, 0]), Buffer.alloc(64)]),
        415,
        'This is not a GGUF model file.',
      ],
      [Buffer.concat([header.subarray(0, 8), Buffer.from([1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0])]), 415, ''],
      [Buffer.concat([header, Buffer.alloc(MAX_BYTES)]), 413, 'The model is larger than this server accepts.'],
    ];
    for (const [content, status, message] of cases) {
      const response = await upload(content, 'junk.gguf');
      expect(response.status).toBe(status);
      const error = await readError(response);
      if (message) expect(error.message).toBe(message);
    }
    const list = await expectJson<AiModelList>(sendJson(server, admin, 'GET', '/api/admin/ai/models'));
    expect(list.models).toEqual([]);
    expect(readdirSync(modelsDir())).toEqual([]);
    // Not multipart, an unknown role, an unknown model.
    expect((await sendJson(server, admin, 'POST', '/api/admin/ai/models', { file: 'x' })).status).toBe(400);
    const created = await expectJson<AiModelRecord>(upload(tinyGguf()), 201);
    const bad = await sendJson(server, admin, 'PUT', `/api/admin/ai/models/${created.id}/role`, { role: 'oracle' });
    expect(bad.status).toBe(400);
    const unknown = await sendJson(server, admin, 'PUT', '/api/admin/ai/models/nope/role', { role: 'chat' });
    expect(unknown.status).toBe(404);
  });

  it('is for admins only', async () => {
    const user = await server.signInAs({ owner_key: 'models-user' });
    const response = await upload(tinyGguf(), 'tiny.gguf', user);
    expect(response.status).toBe(403);
    expect((await sendJson(server, user, 'GET', '/api/admin/ai/models')).status).toBe(403);
    expect((await sendJson(server, undefined, 'GET', '/api/admin/ai/models')).status).toBe(401);
  });
});
