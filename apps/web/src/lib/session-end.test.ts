import { ENDPOINTS } from '@atrium/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from './api-client';
import { postWithProgress, sendOk } from './http';
import { lastSessionEndReason, onSessionEnded } from './session-end';

afterEach(() => vi.unstubAllGlobals());

const answer = (status: number, body: unknown) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );

describe('a 401 ends the page session with the server’s reason', () => {
  it('reports the reason of an UNAUTHENTICATED answer of /api/, and only that', async () => {
    const heard: string[] = [];
    const stop = onSessionEnded((reason) => heard.push(reason));
    answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Your session expired.', reason: 'expired' } });
    await expect(call(ENDPOINTS.auth.me)).rejects.toMatchObject({ status: 401, reason: 'expired' });
    answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Signed out.', reason: 'signed_out' } });
    await expect(sendOk('http://localhost:3000/api/files')).rejects.toMatchObject({ status: 401 });
    // A locked public link and a wrong password are no ended session.
    answer(401, { error: { code: 'LINK_LOCKED', message: 'Locked.' } });
    await expect(sendOk('/public/api/links/abc')).rejects.toMatchObject({ code: 'LINK_LOCKED' });
    answer(401, { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid credentials.' } });
    await expect(sendOk('/api/auth/login', { method: 'POST' })).rejects.toMatchObject({ status: 401 });
    answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } });
    await expect(sendOk('/public/api/links/abc/unlock')).rejects.toMatchObject({ status: 401 });
    stop();
    expect(heard).toEqual(['expired', 'signed_out']);
    expect(lastSessionEndReason()).toBe('signed_out');
  });

  it('counts an answer without a known reason as expired; an upload’s 401 ends it too', async () => {
    const heard: string[] = [];
    const stop = onSessionEnded((reason) => heard.push(reason));
    answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.', reason: 'bogus' } });
    await expect(sendOk('/api/me')).rejects.toMatchObject({ status: 401 });

    class FakeXhr {
      status = 401;
      responseText = JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Disabled.', reason: 'disabled' } });
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send() {
        this.onload?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    await expect(postWithProgress('/api/upload', new FormData(), { totalBytes: 1 })).rejects.toMatchObject({
      message: 'Disabled.',
    });
    stop();
    expect(heard).toEqual(['expired', 'disabled']);
  });
});
