import { describe, expect, it } from 'vitest';
import { makeWav } from '../../../test/fake-ai';
import { readError, readJson } from '../../../test/helpers';
import { serverWithoutPackages } from '../../../test/without-packages';

/**
 * A machine without the Debian programs (flite, lame, ffmpeg): the server
 * still starts and is ready; those services answer 503 naming the package.
 * (This file runs in its own process, so changing PATH here affects no other suite.)
 */
describe('local engines without their Debian packages', () => {
  const ctx = serverWithoutPackages();

  it('text-to-speech answers 503 naming flite', async () => {
    const response = await ctx.server.fetch('/api/ai/text-to-speech', {
      method: 'POST',
      headers: { cookie: ctx.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(response.status).toBe(503);
    const error = await readError(response);
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.message).toMatch(/^Text to speech is not available on this server: .*Debian package flite/);
  });

  it('speech-to-text answers 503 naming the missing package', async () => {
    const response = await ctx.server.fetch('/api/ai/speech-to-text', {
      method: 'POST',
      headers: { cookie: ctx.cookie, 'content-type': 'audio/wav' },
      body: makeWav(1),
    });
    expect(response.status).toBe(503);
    expect((await readError(response)).message).toMatch(/Debian package (ffmpeg|pocketsphinx)/);
  });

  it('readiness stays green and reports those services as disabled (naming the package to admins)', async () => {
    const admin = await ctx.server.signInAs({ owner_key: 'root-admin', role: 'admin' });
    const ready = await ctx.server.fetch('/readyz', { headers: { cookie: admin } });
    expect(ready.status).toBe(200);
    const body = await readJson<{ checks: Record<string, { status: string; message?: string }> }>(ready);
    expect(body.checks['ai.textToSpeech']).toMatchObject({
      status: 'disabled',
      message: expect.stringContaining('flite'),
    });
  });
});
