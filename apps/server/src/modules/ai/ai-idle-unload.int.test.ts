import { afterEach, describe, expect, it } from 'vitest';
import { AiStatusResponse, ReadinessResponse } from '@atrium/contracts';
import { dialects, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Local engines load on first use (or at start with AI_WARM_UP=true) and unload after
 * AI_IDLE_UNLOAD_MINUTES without requests; the real text-to-speech engine (flite + lame in a
 * worker), the others turned off to keep it cheap.
 */
const ONLY_TTS = {
  AI_SPEECH_TO_TEXT_PROVIDER: 'disabled',
  AI_FACE_DETECTION_PROVIDER: 'disabled',
  AI_IMAGE_ANALYSIS_PROVIDER: 'disabled',
};
const NOT_LOADED = 'Not loaded yet; loads on the first request';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects())('local AI engines: load on first use, unload when idle (%s)', (dialect) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (env: Record<string, string>) => {
    const started = await startTestServer({ dialect, env: { ...ONLY_TTS, ...env } });
    server = started;
    const cookie = await started.signInAs({ owner_key: 'admin-idle', role: 'admin' });
    const status = async () =>
      AiStatusResponse.parse(await (await started.fetch('/api/ai/status', { headers: { cookie } })).json())
        .textToSpeech;
    const readyz = async () => {
      const response = await started.fetch('/readyz', { headers: { cookie } });
      return { code: response.status, body: ReadinessResponse.parse(await response.json()) };
    };
    const speak = () =>
      started.fetch('/api/ai/text-to-speech', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Hello again.' }),
      });
    const waitFor = async (loaded: boolean, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      while ((await status()).loaded !== loaded && Date.now() < deadline) await sleep(50);
      return status();
    };
    return { status, readyz, speak, waitFor };
  };

  it(
    'loads on the first request, unloads after the idle period, and the next request still answers',
    {
      timeout: 60_000,
    },
    async () => {
      // 0.05 minutes = 3 s: long enough that the checks right after a request see it loaded.
      const s = await start({ AI_IDLE_UNLOAD_MINUTES: '0.05' });
      expect(await s.status()).toEqual({ provider: 'local', status: 'ok', message: NOT_LOADED, loaded: false });
      // Not loaded is not a failure: the service answers (the dashboard counts it as ready).
      const cold = await s.readyz();
      expect(cold.code).toBe(200);
      expect(cold.body.checks['ai.textToSpeech']).toMatchObject({ status: 'ok', message: NOT_LOADED });

      const first = await s.speak();
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('audio/mpeg');
      expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(500);
      expect(await s.status()).toEqual({ provider: 'local', status: 'ok', loaded: true });

      const unloaded = await s.waitFor(false, 10_000);
      expect(unloaded).toEqual({
        provider: 'local',
        status: 'ok',
        message: 'Unloaded after 3 s without requests; loads again on the next one',
        loaded: false,
      });
      const idle = await s.readyz();
      expect(idle.code).toBe(200);
      expect(idle.body.status).toBe('ok');

      const again = await s.speak();
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe('audio/mpeg');
      expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(500);
      expect((await s.status()).loaded).toBe(true);
    },
  );

  it('AI_IDLE_UNLOAD_MINUTES=0 keeps the engine loaded', { timeout: 60_000 }, async () => {
    const s = await start({ AI_IDLE_UNLOAD_MINUTES: '0' });
    expect((await s.speak()).status).toBe(200);
    await sleep(1500);
    expect(await s.status()).toEqual({ provider: 'local', status: 'ok', loaded: true });
  });

  it('AI_WARM_UP=true loads at start, without any request', { timeout: 60_000 }, async () => {
    const s = await start({ AI_WARM_UP: 'true', AI_IDLE_UNLOAD_MINUTES: '0' });
    expect(await s.waitFor(true, 30_000)).toEqual({ provider: 'local', status: 'ok', loaded: true });
  });

  it('by default nothing loads at start', { timeout: 60_000 }, async () => {
    const s = await start({});
    await sleep(1500);
    expect(await s.status()).toMatchObject({ status: 'ok', loaded: false });
  });
});
