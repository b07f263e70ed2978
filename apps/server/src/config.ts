import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const bytes = z.coerce.number().int().positive();

/** Every environment variable the server reads. Unknown variables are ignored. */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanString.default(false),
  WEB_DIST: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 14),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  MAX_UPLOAD_BYTES: bytes.default(1024 ** 3),
  USER_QUOTA_BYTES: bytes.default(10 * 1024 ** 3),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  CONTACT_MAX_PER_HOUR: z.coerce.number().int().positive().default(5),
});
export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  /** The site's own origin, e.g. http://localhost:3000 (CSRF checks, OIDC callbacks). */
  publicUrl: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  /** Folder of the built SPA; undefined when there is none (API-only). */
  webDist: string | undefined;
  session: { secret: string; idleMs: number; absoluteMs: number; cookieSecure: boolean };
  admin: { username: string; password: string | undefined };
  uploads: { maxBytes: number; userQuotaBytes: number };
  shutdownTimeoutMs: number;
  /** Contact form messages accepted per sender address per hour. */
  contact: { maxPerHour: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Finds the built web app relative to this file, in source (src/) and bundled (dist/) layouts. */
function defaultWebDist(): string | undefined {
  const candidates = [path.resolve(here, '../../web/dist'), path.resolve(here, '../../../apps/web/dist')];
  return candidates.find((candidate) => existsSync(path.join(candidate, 'index.html')));
}

/**
 * Reads a secret from DATA_DIR/secrets, creating it on first use. Only used
 * outside production: production must be given its secrets explicitly.
 */
export function ensureLocalSecret(
  dataDir: string,
  name: string,
  create = () => randomBytes(32).toString('base64url'),
): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return value;
}

/**
 * Validates the environment once and lists every problem, so a bad
 * deployment fails at start-up with one readable message.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const problems: string[] = [];
  if (isProduction && !env.SESSION_SECRET)
    problems.push('SESSION_SECRET: required in production (at least 32 characters)');
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(env.DATA_DIR);
  const host = env.HOST ?? (isProduction ? '0.0.0.0' : 'localhost');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const database = env.DATABASE_URL?.startsWith('postgres')
    ? ({ kind: 'postgres', url: env.DATABASE_URL } as const)
    : ({
        kind: 'sqlite',
        file: env.DATABASE_URL
          ? path.resolve(env.DATABASE_URL.slice('sqlite:'.length))
          : path.join(dataDir, 'atrium.db'),
      } as const);

  return {
    env: env.NODE_ENV,
    isProduction,
    host,
    port: env.PORT,
    publicUrl,
    dataDir,
    database,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : defaultWebDist(),
    session: {
      secret: env.SESSION_SECRET ?? ensureLocalSecret(dataDir, 'session-secret'),
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
      cookieSecure: publicUrl.startsWith('https://'),
    },
    admin: { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD },
    uploads: { maxBytes: env.MAX_UPLOAD_BYTES, userQuotaBytes: env.USER_QUOTA_BYTES },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    contact: { maxPerHour: env.CONTACT_MAX_PER_HOUR },
  };
}
