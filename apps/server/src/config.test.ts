import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { VAPID_KEYS } from '../test/vapid-keys';

const base = { DATA_DIR: '/tmp/atrium-config-test', SESSION_SECRET: 'config-test-secret-0123456789-abcdefghij' };

describe('loadConfig', () => {
  it('runs with embedded defaults: port 3000, SQLite in DATA_DIR, 1 GiB uploads', () => {
    const config = loadConfig(base);
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ kind: 'sqlite', file: '/tmp/atrium-config-test/atrium.db' });
    expect(config.uploads.maxBytes).toBe(1024 ** 3);
    expect(config.admin.username).toBe('admin');
  });

  it('loads local AI models on first use, in production too; unloads them only when AI_IDLE_UNLOAD_MINUTES is set', () => {
    const production = loadConfig({ ...base, NODE_ENV: 'production' });
    expect(production.ai.warmUp).toBe(false);
    expect(production.ai.idleUnloadMs).toBe(0);
    expect(loadConfig({ ...base, AI_IDLE_UNLOAD_MINUTES: '15' }).ai.idleUnloadMs).toBe(15 * 60_000);
    const tuned = loadConfig({ ...base, NODE_ENV: 'production', AI_WARM_UP: 'true', AI_IDLE_UNLOAD_MINUTES: '0' });
    expect(tuned.ai).toMatchObject({ warmUp: true, idleUnloadMs: 0 });
    expect(loadConfig({ ...base, AI_IDLE_UNLOAD_MINUTES: '0.5' }).ai.idleUnloadMs).toBe(30_000);
    expect(() => loadConfig({ ...base, AI_IDLE_UNLOAD_MINUTES: '-1' })).toThrow(/AI_IDLE_UNLOAD_MINUTES/);
  });

  it('selects PostgreSQL from DATABASE_URL', () => {
    const config = loadConfig({ ...base, DATABASE_URL: 'postgres://127.0.0.1:5432/test' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://127.0.0.1:5432/test' });
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ ...base, PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', MAX_UPLOAD_BYTES: '-5' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT: /m);
    expect(problems).toMatch(/^DATABASE_URL: must start with postgres/m);
    expect(problems).toMatch(/^LOG_LEVEL: /m);
    expect(problems).toMatch(/^MAX_UPLOAD_BYTES: /m);
  });

  it('trusts only the proxies TRUST_PROXY lists, and refuses true or a hop count', () => {
    expect(loadConfig(base).trustProxy).toEqual([]);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toEqual([]);
    expect(loadConfig({ ...base, TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback ' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const value of ['true', '1', '2']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value }), value).toThrow(
        /TRUST_PROXY: true trusts X-Forwarded-For from any client.*e\.g\. TRUST_PROXY=127\.0\.0\.1,10\.0\.0\.0\/8/,
      );
    }
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/33,proxy.local,127.0.0.1' })).toThrow(
      /TRUST_PROXY: not an IP address or CIDR: 10\.0\.0\.0\/33, proxy\.local/,
    );
  });

  it('refuses to start in production without a session secret', () => {
    expect(() => loadConfig({ DATA_DIR: base.DATA_DIR, NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET: required in production/,
    );
  });

  it('in production with PostgreSQL, requires the values every instance must share', () => {
    const production = { ...base, NODE_ENV: 'production', DATABASE_URL: 'postgres://db.internal/atrium' };
    expect(() => loadConfig(production)).toThrow(
      'ADMIN_PASSWORD, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: required in production with PostgreSQL',
    );
    expect(() => loadConfig({ ...production, ADMIN_PASSWORD: 'a long and chosen passphrase' })).toThrow(
      /^ {2}- VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: required in production with PostgreSQL/m,
    );
    const shared = {
      ADMIN_PASSWORD: 'a long and chosen passphrase',
      VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey,
      VAPID_PRIVATE_KEY: VAPID_KEYS.privateKey,
    };
    expect(loadConfig({ ...production, ...shared }).notifications.vapid).toEqual(VAPID_KEYS);
    // One instance on SQLite, or any database outside production, may still generate them into DATA_DIR.
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).not.toThrow();
    expect(() => loadConfig({ ...base, DATABASE_URL: production.DATABASE_URL })).not.toThrow();
  });

  it("refuses the example files' placeholders and weak secrets in production, one line each", () => {
    const production = { ...base, NODE_ENV: 'production' };
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...production, ...env });
        return [];
      } catch (error) {
        return error instanceof ConfigError ? error.problems : [String(error)];
      }
    };
    expect(
      problems({
        SESSION_SECRET: 'replace-with-the-output-of-openssl-rand-base64-48',
        ADMIN_PASSWORD: 'replace-with-a-long-admin-password',
        VAPID_PUBLIC_KEY: 'replace-with-the-vapid-public-key',
        VAPID_PRIVATE_KEY: 'replace-with-the-vapid-private-key',
      }),
    ).toEqual([
      'VAPID_PUBLIC_KEY: still the placeholder; generate a pair with `npx web-push generate-vapid-keys`',
      'VAPID_PRIVATE_KEY: still the placeholder; generate a pair with `npx web-push generate-vapid-keys`',
      'SESSION_SECRET: still the placeholder of the example file; generate one with `openssl rand -base64 48`',
      'ADMIN_PASSWORD: still the placeholder of the example file; choose a password of your own',
    ]);
    expect(problems({ ADMIN_PASSWORD: 'changeme' })).toEqual([
      'ADMIN_PASSWORD: still the placeholder of the example file; choose a password of your own',
    ]);
    expect(problems({ ADMIN_PASSWORD: 'short-pass1' })).toEqual([
      'ADMIN_PASSWORD: at least 12 characters in production',
    ]);
    expect(problems({ ADMIN_PASSWORD: 'qwertyuiop123' })).toEqual([
      'ADMIN_PASSWORD: one of the most common passwords (the list local accounts are checked against)',
    ]);
    expect(problems({ ADMIN_PASSWORD: 'aaaaaaaaaaaaaaaabbbb' })).toEqual([
      'ADMIN_PASSWORD: too easy to guess (fewer than 6 different characters)',
    ]);
    expect(problems({ SESSION_SECRET: 'x'.repeat(48) })).toEqual([
      'SESSION_SECRET: too predictable (fewer than 10 different characters); generate one with `openssl rand -base64 48`',
    ]);
    // Chosen values pass; outside production the development defaults stay as they are.
    expect(problems({ ADMIN_PASSWORD: 'correct horse battery staple' })).toEqual([]);
    expect(() => loadConfig({ ...base, ADMIN_PASSWORD: 'changeme' })).not.toThrow();
  });

  it("checks the VAPID key pair's format in any environment", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return [];
      } catch (error) {
        return error instanceof ConfigError ? error.problems : [String(error)];
      }
    };
    expect(problems({ VAPID_PUBLIC_KEY: VAPID_KEYS.privateKey, VAPID_PRIVATE_KEY: VAPID_KEYS.publicKey })).toEqual([
      'VAPID_PUBLIC_KEY: not a P-256 public key (65 bytes, base64url); generate a pair with `npx web-push generate-vapid-keys`',
      'VAPID_PRIVATE_KEY: not a P-256 private key (32 bytes, base64url); generate a pair with `npx web-push generate-vapid-keys`',
    ]);
    expect(problems({ VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey, VAPID_PRIVATE_KEY: 'not base64url!' })).toEqual([
      'VAPID_PRIVATE_KEY: not a P-256 private key (32 bytes, base64url); generate a pair with `npx web-push generate-vapid-keys`',
    ]);
    expect(
      problems({ ...{ VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey, VAPID_PRIVATE_KEY: VAPID_KEYS.privateKey } }),
    ).toEqual([]);
  });

  it('runs the embedded identity provider outside production unless an issuer is set', () => {
    expect(loadConfig(base).oidc).toMatchObject({
      mode: 'embedded',
      issuer: 'http://localhost:3000/oidc',
      providerName: 'Auth0',
    });
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).oidc).toBeUndefined();
    expect(loadConfig({ ...base, NODE_ENV: 'production', DEV_OIDC_PROVIDER: 'true' }).oidc?.mode).toBe('embedded');
    expect(loadConfig({ ...base, DEV_OIDC_PROVIDER: 'false' }).oidc).toBeUndefined();
    const external = loadConfig({
      ...base,
      OIDC_ISSUER: 'https://tenant.auth0.com/',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_PROVIDER_NAME: 'Okta',
    });
    expect(external.oidc).toMatchObject({ mode: 'external', issuer: 'https://tenant.auth0.com/', clientId: 'id' });
    expect(external.providerName).toBe('Okta');
  });

  it('wants all three OIDC variables or none', () => {
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://tenant.auth0.com/' })).toThrow(
      /OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three, or none/,
    );
  });
});
