import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const bytes = z.coerce.number().int().positive();

const aiProvider = z.enum(['local', 'azure', 'openai']);
const aiServiceProvider = z.enum(['local', 'azure', 'openai', 'disabled']);
const optionalUrl = z.url().optional();

/** AI providers (see README, "AI services"). Keys stay on the server. */
const aiEnv = {
  AI_PROVIDER: aiProvider.default('local'),
  AI_SPEECH_TO_TEXT_PROVIDER: aiServiceProvider.optional(),
  AI_TEXT_TO_SPEECH_PROVIDER: aiServiceProvider.optional(),
  AI_FACE_DETECTION_PROVIDER: aiServiceProvider.optional(),
  AI_IMAGE_ANALYSIS_PROVIDER: aiServiceProvider.optional(),
  AI_MAX_IMAGE_BYTES: bytes.default(6 * 1024 * 1024),
  AI_MAX_IMAGE_PIXELS: z.coerce.number().int().positive().default(40_000_000),
  AI_MAX_AUDIO_BYTES: bytes.default(16 * 1024 * 1024),
  AI_MAX_AUDIO_SECONDS: z.coerce.number().positive().max(600).default(60),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  AI_QUEUE_LIMIT: z.coerce.number().int().positive().default(16),
  AI_WARM_UP: booleanString.optional(),
  AI_VOICE_COMMANDS_PER_MINUTE: z.coerce.number().int().positive().default(20),
  AZURE_SPEECH_KEY: z.string().min(1).optional(),
  AZURE_SPEECH_REGION: z
    .string()
    .regex(/^[a-z0-9]+$/, 'must be an Azure region name such as westeurope')
    .optional(),
  AZURE_SPEECH_STT_ENDPOINT: optionalUrl,
  AZURE_SPEECH_TTS_ENDPOINT: optionalUrl,
  AZURE_SPEECH_VOICE: z.string().min(1).default('en-US-JennyNeural'),
  AZURE_FACE_ENDPOINT: optionalUrl,
  AZURE_FACE_KEY: z.string().min(1).optional(),
  AZURE_VISION_ENDPOINT: optionalUrl,
  AZURE_VISION_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_STT_MODEL: z.string().min(1).default('whisper-1'),
  OPENAI_TTS_MODEL: z.string().min(1).default('tts-1'),
  OPENAI_TTS_VOICE: z.string().min(1).default('alloy'),
};

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
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(10),
  LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce.number().int().positive().default(20),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_PROVIDER_NAME: z.string().trim().min(1).max(60).default('Auth0'),
  OIDC_SCOPES: z.string().min(1).default('openid profile email'),
  DEV_OIDC_PROVIDER: booleanString.optional(),
  MAX_UPLOAD_BYTES: bytes.default(1024 ** 3),
  USER_QUOTA_BYTES: bytes.default(10 * 1024 ** 3),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\/)*$/, 'must be empty or end with /')
    .default(''),
  UPLOAD_ORPHAN_GRACE_MINUTES: z.coerce.number().int().min(0).default(60),
  ...aiEnv,
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_CHANNEL_PREFIX: z.string().min(1).default('atrium:'),
  NOTIFICATIONS_HEARTBEAT_MS: z.coerce.number().int().min(50).default(25_000),
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// URL')
    .optional(),
  PUSH_ALLOW_HTTP: booleanString.default(false),
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
  /** Failed admin logins allowed per window, per client IP and per username. */
  loginRateLimit: { maxPerIp: number; maxPerUsername: number; windowMs: number };
  /**
   * OpenID Connect sign-in. `external`: a real issuer (Auth0…); `embedded`: the
   * development provider mounted at /oidc on this server; undefined: OIDC off.
   */
  oidc:
    | {
        mode: 'external' | 'embedded';
        issuer: string;
        clientId: string;
        clientSecret: string;
        scopes: string;
        providerName: string;
      }
    | undefined;
  providerName: string;
  uploads: { maxBytes: number; userQuotaBytes: number; orphanGraceMs: number };
  blobStore:
    | { kind: 'fs' }
    | {
        kind: 's3';
        endpoint: string | undefined;
        bucket: string;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        prefix: string;
      };
  shutdownTimeoutMs: number;
  ai: AiConfig;
  /** Event bus between instances: Redis when a URL is set, otherwise in-process. */
  bus: { redisUrl: string | undefined; channelPrefix: string };
  notifications: {
    heartbeatMs: number;
    /** VAPID keys from the environment; generated into DATA_DIR/secrets when unset. */
    vapid: { publicKey: string; privateKey: string } | undefined;
    vapidSubject: string;
    /** Allow http:// push endpoints (tests with a local fake push service only). */
    pushAllowHttp: boolean;
  };
  /** Contact form messages accepted per sender address per hour. */
  contact: { maxPerHour: number };
}

export type AiServiceKey = 'speechToText' | 'textToSpeech' | 'faceDetection' | 'imageAnalysis';
export type AiProviderChoice = 'local' | 'azure' | 'openai' | 'disabled';

export interface AiConfig {
  /** Which provider runs each service. */
  providers: Record<AiServiceKey, AiProviderChoice>;
  limits: { imageBytes: number; imagePixels: number; audioBytes: number; audioSeconds: number };
  timeoutMs: number;
  queueLimit: number;
  /** Load local models in the background after start-up (default: yes, except NODE_ENV=test). */
  warmUp: boolean;
  /** Public voice-command transcriptions allowed per client IP and minute. */
  voiceCommandsPerMinute: number;
  azure: {
    speech: { key: string; sttEndpoint: string; ttsEndpoint: string; voice: string } | undefined;
    face: { key: string; endpoint: string } | undefined;
    vision: { key: string; endpoint: string } | undefined;
  };
  openai:
    { baseUrl: string; apiKey: string | undefined; sttModel: string; ttsModel: string; voice: string } | undefined;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Resolves AI_PROVIDER and the per-service overrides, listing every missing setting. */
function resolveAiConfig(env: Env, problems: string[]): AiConfig {
  const perService: Record<AiServiceKey, [keyof Env, AiProviderChoice | undefined]> = {
    speechToText: ['AI_SPEECH_TO_TEXT_PROVIDER', env.AI_SPEECH_TO_TEXT_PROVIDER],
    textToSpeech: ['AI_TEXT_TO_SPEECH_PROVIDER', env.AI_TEXT_TO_SPEECH_PROVIDER],
    faceDetection: ['AI_FACE_DETECTION_PROVIDER', env.AI_FACE_DETECTION_PROVIDER],
    imageAnalysis: ['AI_IMAGE_ANALYSIS_PROVIDER', env.AI_IMAGE_ANALYSIS_PROVIDER],
  };
  const providers = {} as Record<AiServiceKey, AiProviderChoice>;
  for (const [service, [variable, explicit]] of Object.entries(perService) as [
    AiServiceKey,
    [keyof Env, AiProviderChoice | undefined],
  ][]) {
    const visual = service === 'faceDetection' || service === 'imageAnalysis';
    // OpenAI-compatible servers have no face or vision API: those services stay local.
    const fallback = env.AI_PROVIDER === 'openai' && visual ? 'local' : env.AI_PROVIDER;
    const chosen = explicit ?? fallback;
    if (chosen === 'openai' && visual) {
      problems.push(`${variable}: OpenAI-compatible servers have no ${service} API; use local or azure`);
    }
    providers[service] = chosen;
  }
  const uses = (provider: AiProviderChoice, ...services: AiServiceKey[]) =>
    services.some((service) => providers[service] === provider);

  let speech: AiConfig['azure']['speech'];
  if (uses('azure', 'speechToText', 'textToSpeech')) {
    const region = env.AZURE_SPEECH_REGION;
    const stt = env.AZURE_SPEECH_STT_ENDPOINT ?? (region && `https://${region}.stt.speech.microsoft.com`);
    const tts = env.AZURE_SPEECH_TTS_ENDPOINT ?? (region && `https://${region}.tts.speech.microsoft.com`);
    if (!env.AZURE_SPEECH_KEY) problems.push('AZURE_SPEECH_KEY: required when a speech service uses azure');
    if (!stt || !tts)
      problems.push(
        'AZURE_SPEECH_REGION (or AZURE_SPEECH_STT_ENDPOINT and AZURE_SPEECH_TTS_ENDPOINT): required when a speech service uses azure',
      );
    if (env.AZURE_SPEECH_KEY && stt && tts) {
      speech = {
        key: env.AZURE_SPEECH_KEY,
        sttEndpoint: trimSlash(stt),
        ttsEndpoint: trimSlash(tts),
        voice: env.AZURE_SPEECH_VOICE,
      };
    }
  }
  const keyed = (service: AiServiceKey, name: 'FACE' | 'VISION', key?: string, endpoint?: string) => {
    if (providers[service] !== 'azure') return undefined;
    if (!key) problems.push(`AZURE_${name}_KEY: required when ${service} uses azure`);
    if (!endpoint) problems.push(`AZURE_${name}_ENDPOINT: required when ${service} uses azure`);
    return key && endpoint ? { key, endpoint: trimSlash(endpoint) } : undefined;
  };
  const face = keyed('faceDetection', 'FACE', env.AZURE_FACE_KEY, env.AZURE_FACE_ENDPOINT);
  const vision = keyed('imageAnalysis', 'VISION', env.AZURE_VISION_KEY, env.AZURE_VISION_ENDPOINT);

  let openai: AiConfig['openai'];
  if (uses('openai', 'speechToText', 'textToSpeech')) {
    if (!env.OPENAI_BASE_URL) problems.push('OPENAI_BASE_URL: required when a speech service uses openai');
    else
      openai = {
        baseUrl: trimSlash(env.OPENAI_BASE_URL),
        apiKey: env.OPENAI_API_KEY,
        sttModel: env.OPENAI_STT_MODEL,
        ttsModel: env.OPENAI_TTS_MODEL,
        voice: env.OPENAI_TTS_VOICE,
      };
  }
  return {
    providers,
    limits: {
      imageBytes: env.AI_MAX_IMAGE_BYTES,
      imagePixels: env.AI_MAX_IMAGE_PIXELS,
      audioBytes: env.AI_MAX_AUDIO_BYTES,
      audioSeconds: env.AI_MAX_AUDIO_SECONDS,
    },
    timeoutMs: env.AI_TIMEOUT_MS,
    queueLimit: env.AI_QUEUE_LIMIT,
    warmUp: env.AI_WARM_UP ?? env.NODE_ENV !== 'test',
    voiceCommandsPerMinute: env.AI_VOICE_COMMANDS_PER_MINUTE,
    azure: { speech, face, vision },
    openai,
  };
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
  // With PostgreSQL several instances may serve one site, each with its own DATA_DIR: what would
  // otherwise be generated per data folder must be the same everywhere, so it must be given.
  if (isProduction && env.DATABASE_URL?.startsWith('postgres')) {
    const unshared = (['ADMIN_PASSWORD', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const).filter(
      (name) => !env[name],
    );
    if (unshared.length > 0)
      problems.push(
        `${unshared.join(', ')}: required in production with PostgreSQL (every instance must share them; see .env.example)`,
      );
  }
  const oidcVars = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidcVars.some(Boolean) && !oidcVars.every(Boolean))
    problems.push('OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three, or none');
  if (env.OIDC_ISSUER && env.DEV_OIDC_PROVIDER)
    problems.push('DEV_OIDC_PROVIDER: cannot be enabled together with OIDC_ISSUER');
  if (env.BLOB_STORE === 's3' && !env.S3_BUCKET) problems.push('S3_BUCKET: required when BLOB_STORE=s3');
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  const ai = resolveAiConfig(env, problems);
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    problems.push('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
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

  const sessionSecret = env.SESSION_SECRET ?? ensureLocalSecret(dataDir, 'session-secret');
  const embedded = !env.OIDC_ISSUER && (env.DEV_OIDC_PROVIDER ?? !isProduction);
  const oidc: Config['oidc'] =
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
      ? {
          mode: 'external',
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID,
          clientSecret: env.OIDC_CLIENT_SECRET,
          scopes: env.OIDC_SCOPES,
          providerName: env.OIDC_PROVIDER_NAME,
        }
      : embedded
        ? {
            mode: 'embedded',
            issuer: `${publicUrl}/oidc`,
            clientId: 'atrium',
            clientSecret: createHmac('sha256', sessionSecret).update('atrium dev OIDC client').digest('base64url'),
            scopes: env.OIDC_SCOPES,
            providerName: env.OIDC_PROVIDER_NAME,
          }
        : undefined;

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
      secret: sessionSecret,
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
      cookieSecure: publicUrl.startsWith('https://'),
    },
    admin: { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD },
    loginRateLimit: {
      maxPerIp: env.LOGIN_MAX_FAILURES_PER_IP,
      maxPerUsername: env.LOGIN_MAX_FAILURES_PER_USERNAME,
      windowMs: env.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    },
    oidc,
    providerName: env.OIDC_PROVIDER_NAME,
    uploads: {
      maxBytes: env.MAX_UPLOAD_BYTES,
      userQuotaBytes: env.USER_QUOTA_BYTES,
      orphanGraceMs: env.UPLOAD_ORPHAN_GRACE_MINUTES * 60_000,
    },
    blobStore:
      env.BLOB_STORE === 's3'
        ? {
            kind: 's3',
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET ?? '',
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            prefix: env.S3_PREFIX,
          }
        : { kind: 'fs' },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    ai,
    bus: { redisUrl: env.REDIS_URL, channelPrefix: env.REDIS_CHANNEL_PREFIX },
    notifications: {
      heartbeatMs: env.NOTIFICATIONS_HEARTBEAT_MS,
      vapid:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
          ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
          : undefined,
      vapidSubject: env.VAPID_SUBJECT ?? (publicUrl.startsWith('https://') ? publicUrl : 'mailto:admin@localhost'),
      pushAllowHttp: env.PUSH_ALLOW_HTTP,
    },
    contact: { maxPerHour: env.CONTACT_MAX_PER_HOUR },
  };
}
