import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiErrorFrom } from './api-error';
import { postWithProgress, RequestCancelledError, send, sendOk } from './http';

afterEach(() => vi.unstubAllGlobals());

describe('apiErrorFrom (the one reader of failed answers)', () => {
  it("reads the server's error shape with its details", () => {
    const error = apiErrorFrom(
      400,
      JSON.stringify({
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Bad.',
          requestId: 'r1',
          details: [{ path: 'email', message: 'x' }],
        },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message, error.details]).toEqual([
      400,
      'VALIDATION_FAILED',
      'Bad.',
      [{ path: 'email', message: 'x' }],
    ]);
  });

  it('falls back to a short text body, or to the fallback for HTML, JSON of another shape and long bodies', () => {
    expect(apiErrorFrom(502, 'Bad gateway').message).toBe('Bad gateway');
    expect(apiErrorFrom(502, '<html>nginx</html>').message).toBe('Request failed with status 502');
    expect(apiErrorFrom(500, '{"message":"x"}').code).toBe('HTTP_ERROR');
    expect(apiErrorFrom(413, 'x'.repeat(400), 'Upload failed with status 413').message).toBe(
      'Upload failed with status 413',
    );
    expect(apiErrorFrom(500, '').message).toBe('Request failed with status 500');
  });
});

describe('send / sendOk', () => {
  it('turns a request that cannot reach the server into NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(send('/api/x')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('rejects a failed answer with the ApiError its body describes, and sends the cookie', async () => {
    const calls: RequestInit[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      calls.push(init);
      return Promise.resolve(
        new Response(JSON.stringify({ error: { code: 'FILE_NOT_FOUND', message: 'File not found' } }), { status: 404 }),
      );
    });
    await expect(sendOk('/api/files/x')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', status: 404 });
    expect(calls[0]?.credentials).toBe('same-origin');
  });
});

describe('postWithProgress', () => {
  it('rejects at once when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      postWithProgress('/api/files/upload', new FormData(), { totalBytes: 1, signal: controller.signal }),
    ).rejects.toBeInstanceOf(RequestCancelledError);
  });
});
