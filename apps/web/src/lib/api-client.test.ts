import { ENDPOINTS } from '@atrium/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, isApiError } from './api-client';

afterEach(() => vi.unstubAllGlobals());

/** Records each request and answers `status` with `body`. */
function stubFetch(status: number, body: unknown) {
  const requests: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, method: init.method ?? 'GET', body: init.body });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return requests;
}

describe('call (an endpoint of the endpoint table)', () => {
  it('sends its method to its path with the parameters filled in, the query appended and the body as JSON', async () => {
    const restored = { id: 'f 1', kind: 'file', name: 'a.txt', toRoot: false, folderId: 'r' };
    let requests = stubFetch(200, restored);
    expect(await call(ENDPOINTS.trash.restore, { params: { id: 'f 1/2' } })).toMatchObject({ name: 'a.txt' });
    expect(requests).toEqual([{ url: '/api/trash/f%201%2F2/restore', method: 'POST', body: undefined }]);

    requests = stubFetch(200, { purged: 0 });
    expect(await call(ENDPOINTS.trash.empty, { query: { workspaceId: null } })).toEqual({ purged: 0 });
    await call(ENDPOINTS.trash.empty, { query: { workspaceId: 'w&1' } });
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['DELETE', '/api/trash'],
      ['DELETE', '/api/trash?workspaceId=w%261'],
    ]);

    requests = stubFetch(200, { fileView: 'grid' });
    expect(await call(ENDPOINTS.preferences.update, { body: { fileView: 'grid' } })).toEqual({ fileView: 'grid' });
    expect(requests).toEqual([{ url: '/api/me/preferences', method: 'PUT', body: '{"fileView":"grid"}' }]);

    requests = stubFetch(200, { items: [], nextCursor: null });
    await call(ENDPOINTS.search.search, { query: { q: 'budget 2026', type: '', limit: 5, cursor: undefined } });
    expect(requests.map((r) => r.url)).toEqual(['/api/search?q=budget%202026&limit=5']);
  });

  it('refuses an answer that does not match the response schema, and reads a failure as an ApiError', async () => {
    stubFetch(200, { fileView: 'table' });
    await expect(call(ENDPOINTS.preferences.get)).rejects.toThrow();
    stubFetch(404, { error: { code: 'NOT_FOUND', message: 'That item is not in the trash.', requestId: 'r' } });
    const error: unknown = await call(ENDPOINTS.trash.purge, { params: { id: 'x' } }).catch((e: unknown) => e);
    expect(isApiError(error) && [error.status, error.message]).toEqual([404, 'That item is not in the trash.']);
  });

  it('is typed by the endpoint: path parameters and bodies are required where the endpoint has them', () => {
    const typeChecks = () => {
      // @ts-expect-error the restore endpoint needs its id
      void call(ENDPOINTS.trash.restore);
      // @ts-expect-error a parameter the endpoint does not have
      void call(ENDPOINTS.trash.restore, { params: { fileId: 'x' } });
      // @ts-expect-error a body of the wrong shape
      void call(ENDPOINTS.preferences.update, { body: { fileView: 'table' } });
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});
