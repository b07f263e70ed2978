import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { documented } from './env';

// The process itself: where it listens and logs, its data folder and database, proxies, shutting down.

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string): boolean => {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
};

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed, as addresses and CIDRs. `true` (and a hop
 * count) would let any client choose its own IP for the per-IP limits, so they are refused.
 */
const trustedProxies = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '' && entry !== 'false');
    if (entries.some((entry) => entry === 'true' || /^\d+$/.test(entry))) {
      ctx.addIssue({
        code: 'custom',
        message:
          'true trusts X-Forwarded-For from any client, which could then pick its own IP for the sign-in limits; list the addresses or CIDRs of your proxies instead, e.g. TRUST_PROXY=127.0.0.1,10.0.0.0/8',
      });
      return z.NEVER;
    }
    const invalid = entries.filter((entry) => !isProxyAddress(entry));
    if (invalid.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `not an IP address or CIDR: ${invalid.join(', ')} (e.g. TRUST_PROXY=127.0.0.1,10.0.0.0/8)`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** Where the server runs: its address, data, database, log and proxies. */
export const serverEnv = {
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      '`production` requires `SESSION_SECRET` (and with PostgreSQL also `ADMIN_PASSWORD`, `VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY`: instances must share them) and turns the development identity provider off',
    ),
  HOST: documented(z.string().min(1).optional(), 'address to listen on', '`localhost` (`0.0.0.0` in production)'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('port to listen on'),
  PUBLIC_URL: documented(
    z.url().optional(),
    "the site's own origin, exactly as browsers see it. Set it on any real deployment: CSRF checks accept only this `Origin`, sign-in callbacks are built from it, cookies are `Secure` when it is https. Unset, the site is wherever browsers reach it (`http://127.0.0.1:3000`, a LAN address)",
    'unset (the address of each request)',
  ),
  DATA_DIR: z.string().min(1).default('./data').describe('database, files and generated secrets'),
  DATABASE_URL: documented(
    z
      .string()
      .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
      .optional(),
    '`postgres://…` for PostgreSQL, or `sqlite:/path/file.db`',
    'SQLite file in `DATA_DIR`',
  ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino level (`silent` … `trace`)'),
  LOG_FORMAT: z
    .enum(['auto', 'json', 'readable'])
    .default('auto')
    .describe(
      'log lines: `json` (pino, for the journal and collectors), `readable` (one line a person reads), `auto`: readable when stdout is a terminal, else JSON',
    ),
  TRUST_PROXY: documented(
    trustedProxies,
    'comma-separated addresses/CIDRs (or `loopback`, `linklocal`, `uniquelocal`) of the reverse proxies whose `X-Forwarded-For` is trusted; `true` and hop counts are refused, since any client could then choose its own IP for the per-IP limits',
    'none (no proxy is trusted)',
  ),
  WEB_DIST: documented(z.string().min(1).optional(), 'built SPA to serve', '`apps/web/dist`'),
};

/** How long a request may take to finish or to send its body. */
export const requestEnv = {
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('on `SIGTERM`/`SIGINT`, how long requests in flight may take to finish before the process exits anyway'),
  BODY_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30_000)
    .describe(
      'a request whose body sends no byte for this long gets `408` and its connection is closed (a stalled tus upload keeps the bytes that arrived); uploads that keep sending are never cut; the same limit closes a connection whose body stalls after an early answer (401, 403, 413, 429); `0` turns it off',
    ),
};

/** The two public endpoints guarded by settings of their own: the contact form and the metrics. */
export const endpointsEnv = {
  CONTACT_MAX_PER_HOUR: z.coerce
    .number()
    .int()
    .positive()
    .default(5)
    .describe('contact-form messages accepted per sender IP address in any rolling hour (then 429 with `Retry-After`)'),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('bearer token that Prometheus sends to `GET /metrics`; unset: `/metrics` answers 404'),
};

type ServerEnv = z.infer<z.ZodObject<typeof serverEnv>>;

export type NodeEnv = ServerEnv['NODE_ENV'];
export type LogLevel = ServerEnv['LOG_LEVEL'];
export type LogFormat = ServerEnv['LOG_FORMAT'];
export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** The database named by DATABASE_URL: PostgreSQL, or a SQLite file (in DATA_DIR unless given). */
export function resolveDatabase(env: Pick<ServerEnv, 'DATABASE_URL'>, dataDir: string): DatabaseConfig {
  return env.DATABASE_URL?.startsWith('postgres')
    ? ({ kind: 'postgres', url: env.DATABASE_URL } as const)
    : ({
        kind: 'sqlite',
        file: env.DATABASE_URL
          ? path.resolve(env.DATABASE_URL.slice('sqlite:'.length))
          : path.join(dataDir, 'atrium.db'),
      } as const);
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Finds the built web app relative to this file: apps/web/dist seen from the source (src/config/) and from the
 * bundle (dist/main.js, where this code is inlined).
 */
export function defaultWebDist(): string | undefined {
  const candidates = [path.resolve(here, '../../../web/dist'), path.resolve(here, '../../web/dist')];
  return candidates.find((candidate) => existsSync(path.join(candidate, 'index.html')));
}
