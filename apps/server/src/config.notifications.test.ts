import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { VAPID_KEYS } from '../test/vapid-keys';

const base = { DATA_DIR: '/tmp/atrium-config-test', SESSION_SECRET: 'x'.repeat(32) };

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
};

describe('notification and event bus configuration', () => {
  it('defaults to the in-process bus, a 25 s heartbeat, generated VAPID keys and https-only push', () => {
    const config = loadConfig(base);
    expect(config.bus).toEqual({ redisUrl: undefined, channelPrefix: 'atrium:' });
    expect(config.notifications).toEqual({
      heartbeatMs: 25_000,
      vapid: undefined,
      vapidSubject: 'mailto:admin@localhost',
      pushAllowLoopback: false,
    });
  });

  it('reads Redis, VAPID keys and subject, and uses an https PUBLIC_URL as the default subject', () => {
    const config = loadConfig({
      ...base,
      REDIS_URL: 'redis://127.0.0.1:6379',
      VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey,
      VAPID_PRIVATE_KEY: VAPID_KEYS.privateKey,
      PUBLIC_URL: 'https://atrium.example',
    });
    expect(config.bus.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.notifications.vapid).toEqual(VAPID_KEYS);
    expect(config.notifications.vapidSubject).toBe('https://atrium.example');
  });

  it('refuses a non-Redis URL, half a VAPID key pair, a bad subject and a too short heartbeat', () => {
    expect(problemsOf({ REDIS_URL: 'http://127.0.0.1:6379' })).toMatch(/^REDIS_URL: /m);
    expect(problemsOf({ VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey })).toMatch(
      /VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither/,
    );
    expect(problemsOf({ VAPID_SUBJECT: 'http://atrium.example' })).toMatch(/^VAPID_SUBJECT: /m);
    expect(problemsOf({ NOTIFICATIONS_HEARTBEAT_MS: '10' })).toMatch(/^NOTIFICATIONS_HEARTBEAT_MS: /m);
  });
});
