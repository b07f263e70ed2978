import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const bytes = z.coerce.number().int().positive();

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

/**
 * Documents a variable whose default the schema cannot show by itself (generated, derived from another
 * variable, a size in bytes). Every variable needs a description (`.describe()` or this): the README's
 * configuration table is generated from them (`node scripts/config-docs.mjs`).
 */
const documented = <T extends z.ZodType>(schema: T, description: string, defaultText: string) =>
  schema.meta({ description, defaultText });

const aiProvider = z.enum(['local', 'azure', 'openai']);
const aiServiceProvider = z.enum(['local', 'azure', 'openai', 'disabled']);
const optionalUrl = z.url().optional();
const perService = (service: string) =>
  documented(
    aiServiceProvider.optional(),
    `provider of ${service} alone: \`local\`, \`azure\`, \`openai\` (speech services only) or \`disabled\``,
    '`AI_PROVIDER`',
  );

/** AI providers (see README, "AI services"). Keys stay on the server. */
const aiEnv = {
  AI_PROVIDER: aiProvider
    .default('local')
    .describe('provider of every AI service: `local` (offline engines), `azure` or `openai`'),
  AI_SPEECH_TO_TEXT_PROVIDER: perService('speech to text'),
  AI_TEXT_TO_SPEECH_PROVIDER: perService('text to speech'),
  AI_FACE_DETECTION_PROVIDER: perService('face detection'),
  AI_IMAGE_ANALYSIS_PROVIDER: perService('image analysis'),
  AI_MAX_IMAGE_BYTES: documented(bytes.default(6 * 1024 * 1024), 'largest image accepted (413 above it)', '6 MiB'),
  AI_MAX_IMAGE_PIXELS: z.coerce
    .number()
    .int()
    .positive()
    .default(40_000_000)
    .describe('largest image in pixels (413 above it)'),
  AI_MAX_AUDIO_BYTES: documented(bytes.default(16 * 1024 * 1024), 'largest audio accepted (413 above it)', '16 MiB'),
  AI_MAX_AUDIO_SECONDS: z.coerce
    .number()
    .positive()
    .max(600)
    .default(60)
    .describe('longest audio accepted, in seconds (413 above it)'),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000).describe('per-request AI time-out (then 504)'),
  AI_QUEUE_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(16)
    .describe('requests waiting per local engine (503 + `Retry-After` above it)'),
  AI_WARM_UP: booleanString
    .default(false)
    .describe('load the local models in the background after start-up instead of on the first request'),
  AI_IDLE_UNLOAD_MINUTES: z.coerce
    .number()
    .min(0)
    .default(0)
    .describe(
      'unload a local engine (terminate its worker threads) after this many minutes without requests; it loads again on the next one. `0` = never. Each load/unload round currently leaves about 100 MiB behind (docs/BENCHMARKS.md): leave at 0 unless the engines are used rarely',
    ),
  ANALYSIS_ENABLED: booleanString
    .default(true)
    .describe(
      'analyse every stored file in the background (OCR, document text, transcripts, tags, faces) with the AI providers above; with the local engines nothing leaves the machine',
    ),
  THUMBNAILS_IN_BACKGROUND: booleanString
    .default(true)
    .describe(
      'make the thumbnail of every new upload (images; PDFs with poppler-utils, videos with ffmpeg) in the background, so the grid view finds it ready; off: each is made on its first request',
    ),
  ANALYSIS_TIMEOUT_MINUTES: z.coerce
    .number()
    .positive()
    .default(30)
    .describe('time-out of one file’s analysis (then retried with backoff, 3 attempts in all)'),
  AI_VOICE_COMMANDS_PER_MINUTE: z.coerce
    .number()
    .int()
    .positive()
    .default(20)
    .describe('voice-assistant transcriptions (`/api/assistant/voice-command`, public) per client IP and minute'),
  AZURE_SPEECH_KEY: z.string().min(1).optional().describe('Azure Speech key (when a speech service uses `azure`)'),
  AZURE_SPEECH_REGION: z
    .string()
    .regex(/^[a-z0-9]+$/, 'must be an Azure region name such as westeurope')
    .optional()
    .describe('Azure Speech region, e.g. `westeurope` (or set both endpoints below instead)'),
  AZURE_SPEECH_STT_ENDPOINT: documented(
    optionalUrl,
    'Azure speech-to-text endpoint',
    '`https://<region>.stt.speech.microsoft.com`',
  ),
  AZURE_SPEECH_TTS_ENDPOINT: documented(
    optionalUrl,
    'Azure text-to-speech endpoint',
    '`https://<region>.tts.speech.microsoft.com`',
  ),
  AZURE_SPEECH_VOICE: z.string().min(1).default('en-US-JennyNeural').describe('Azure voice for plain text'),
  AZURE_FACE_ENDPOINT: optionalUrl.describe('Azure Face endpoint (when face detection uses `azure`)'),
  AZURE_FACE_KEY: z.string().min(1).optional().describe('Azure Face key'),
  AZURE_VISION_ENDPOINT: optionalUrl.describe('Azure Computer Vision endpoint (when image analysis uses `azure`)'),
  AZURE_VISION_KEY: z.string().min(1).optional().describe('Azure Computer Vision key'),
  OPENAI_BASE_URL: optionalUrl.describe(
    'any OpenAI-compatible server (OpenAI, whisper.cpp server, LocalAI…) when a speech service uses `openai`',
  ),
  OPENAI_API_KEY: z.string().min(1).optional().describe('its API key, if it needs one'),
  OPENAI_STT_MODEL: z.string().min(1).default('whisper-1').describe('speech-to-text model sent to it'),
  OPENAI_TTS_MODEL: z.string().min(1).default('tts-1').describe('text-to-speech model sent to it'),
  OPENAI_TTS_VOICE: z.string().min(1).default('alloy').describe('text-to-speech voice sent to it'),
};

/** Every environment variable the server reads, with its description. Unknown variables are ignored. */
export const EnvSchema = z.object({
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
  TRUST_PROXY: documented(
    trustedProxies,
    'comma-separated addresses/CIDRs (or `loopback`, `linklocal`, `uniquelocal`) of the reverse proxies whose `X-Forwarded-For` is trusted; `true` and hop counts are refused, since any client could then choose its own IP for the per-IP limits',
    'none (no proxy is trusted)',
  ),
  WEB_DIST: documented(z.string().min(1).optional(), 'built SPA to serve', '`apps/web/dist`'),
  SESSION_SECRET: documented(
    z.string().min(32, 'must be at least 32 characters').optional(),
    '32+ characters; required in production',
    'generated in `DATA_DIR/secrets`',
  ),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24)
    .describe('a session ends after this long without a request'),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 14)
    .describe('a session ends this long after sign-in, whatever happens'),
  ADMIN_USERNAME: z.string().min(1).default('admin').describe('username of the built-in admin'),
  ADMIN_PASSWORD: documented(
    z.string().min(8, 'must be at least 8 characters').optional(),
    'password of the built-in admin (8+ characters)',
    'generated on first start, printed once in the log',
  ),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce
    .number()
    .int()
    .positive()
    .default(10)
    .describe('failed admin sign-ins allowed per window and client IP; then `429` with `Retry-After`'),
  LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce
    .number()
    .int()
    .positive()
    .default(20)
    .describe('failed admin sign-ins allowed per window and username; then `429` with `Retry-After`'),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(15)
    .describe('the sign-in rate-limit window (counted in the database: shared by every instance)'),
  OIDC_ISSUER: z
    .url()
    .optional()
    .describe(
      'an OpenID Connect provider (set `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`, or none); see *Signing in with Auth0*',
    ),
  OIDC_CLIENT_ID: z.string().min(1).optional().describe("Atrium's client id at the provider"),
  OIDC_CLIENT_SECRET: z.string().min(1).optional().describe("Atrium's client secret at the provider"),
  OIDC_PROVIDER_NAME: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .default('Auth0')
    .describe("the provider's name on the login page and in its messages"),
  OIDC_SCOPES: z.string().min(1).default('openid profile email').describe('scopes requested from the provider'),
  OIDC_ADMIN_CLAIM: documented(
    z.string().trim().min(1).max(100).optional(),
    "claim (ID token or userinfo, e.g. `groups` or `roles`) whose values make a user an admin at each sign-in; set: the provider decides every OIDC user's role",
    '`groups` with the embedded development provider, else unset (roles are set by hand)',
  ),
  OIDC_ADMIN_VALUES: documented(
    z.string().trim().max(2000).optional(),
    'comma-separated values of `OIDC_ADMIN_CLAIM` that mean admin',
    '`atrium-admins` with the embedded development provider',
  ),
  DEV_OIDC_PROVIDER: documented(
    booleanString.optional(),
    '`true`/`false`: force the embedded development identity provider on or off',
    'on outside production when `OIDC_ISSUER` is unset',
  ),
  MAX_UPLOAD_BYTES: documented(bytes.default(1024 ** 3), 'largest single file (over it: 413)', '1 GiB'),
  USER_QUOTA_BYTES: documented(
    bytes.default(10 * 1024 ** 3),
    'total bytes one owner may store (over it: 413)',
    '10 GiB',
  ),
  WORKSPACE_QUOTA_BYTES: documented(
    bytes.default(10 * 1024 ** 3),
    'total bytes one workspace may store (its files and folders; shown as `quotaBytes` by `GET /api/workspaces/{id}`)',
    '10 GiB',
  ),
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
  BLOB_STORE: z.enum(['fs', 's3']).default('fs').describe('where file bytes live: `fs` (`DATA_DIR/blobs`) or `s3`'),
  S3_ENDPOINT: documented(
    z.url().optional(),
    "S3-compatible endpoint (path-style: AWS, MinIO, Ceph, Garage…). Requests carry checksums only where S3 requires them (AWS SDK `WHEN_REQUIRED`), so servers that do not decode the SDK's default `aws-chunked` uploads store the right bytes",
    "AWS's endpoint for `S3_REGION`",
  ),
  S3_BUCKET: documented(
    z.string().min(1).optional(),
    'bucket name (required with `BLOB_STORE=s3`); created if missing',
    'unset',
  ),
  S3_REGION: z.string().min(1).default('us-east-1').describe('bucket region'),
  S3_ACCESS_KEY_ID: documented(
    z.string().min(1).optional(),
    'S3 access key id; set both keys or neither',
    "the AWS SDK's default chain",
  ),
  S3_SECRET_ACCESS_KEY: documented(
    z.string().min(1).optional(),
    'S3 secret access key; set both keys or neither',
    "the AWS SDK's default chain",
  ),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\/)*$/, 'must be empty or end with /')
    .default('')
    .describe('key prefix inside the bucket, e.g. `atrium/`'),
  UPLOAD_ORPHAN_GRACE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(60)
    .describe(
      'the sweep (at start-up, then every half of this, between 1 minute and 1 hour) removes unfinished writes and blobs without a file record older than this',
    ),
  ...aiEnv,
  REDIS_URL: documented(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
    '`redis://…` or `rediss://…`: notifications published on one instance reach streams on every instance (Redis pub/sub), and resumable-upload locks are shared. Needed when you run more than one instance',
    'unset (in-process bus)',
  ),
  REDIS_CHANNEL_PREFIX: z
    .string()
    .min(1)
    .default('atrium:')
    .describe('prefix of the Redis pub/sub channels, so several deployments can share one Redis'),
  NOTIFICATIONS_HEARTBEAT_MS: z.coerce
    .number()
    .int()
    .min(50)
    .default(25_000)
    .describe(
      'interval of the heartbeat comments on notification streams (keeps idle connections open through proxies)',
    ),
  VAPID_PUBLIC_KEY: documented(
    z.string().min(1).optional(),
    "Web Push VAPID public key (base64url, as `npx web-push generate-vapid-keys` prints); set both keys or neither. Keep it stable: browsers' push subscriptions are bound to it",
    'generated into `DATA_DIR/secrets/vapid-keys.json`',
  ),
  VAPID_PRIVATE_KEY: documented(
    z.string().min(1).optional(),
    'Web Push VAPID private key; set both keys or neither',
    'generated into `DATA_DIR/secrets/vapid-keys.json`',
  ),
  VAPID_SUBJECT: documented(
    z
      .string()
      .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// URL')
      .optional(),
    'contact for push services (`mailto:` or `https://`)',
    '`PUBLIC_URL` when https, else `mailto:admin@localhost`',
  ),
  PUSH_ALLOW_LOOPBACK: booleanString
    .default(false)
    .describe('also accept push endpoints on loopback addresses, over http or https: a local test push service only'),
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .positive()
    .max(36500)
    .default(365)
    .describe('days audit-log entries are kept; older ones are deleted by a daily job'),
  TRASH_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .positive()
    .max(36500)
    .default(30)
    .describe('days deleted files and folders stay in the trash; older ones are purged by a daily job'),
  FILE_VERSIONS_KEPT: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(10)
    .describe('older versions kept per file when its content is replaced (the oldest beyond this are deleted)'),
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
});
export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  /** The site's own origin, e.g. http://localhost:3000 (CSRF checks, OIDC callbacks). */
  publicUrl: string;
  /** PUBLIC_URL was set: only its origin is accepted. Unset: each request's own origin (lib/site-origin.ts). */
  publicUrlConfigured: boolean;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  logLevel: Env['LOG_LEVEL'];
  /** Addresses/CIDRs of the proxies whose X-Forwarded-* headers are believed; empty: none. */
  trustProxy: string[];
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
        /** `OIDC_ADMIN_CLAIM`: undefined = roles are not mapped from the provider. */
        adminClaim: string | undefined;
        /** `OIDC_ADMIN_VALUES`. */
        adminValues: string[];
      }
    | undefined;
  /** The audit log's retention (`AUDIT_RETENTION_DAYS`). */
  audit: { retentionDays: number };
  /** The trash (`TRASH_RETENTION_DAYS`) and file versions (`FILE_VERSIONS_KEPT`). */
  trash: { retentionDays: number };
  versions: { kept: number };
  providerName: string;
  uploads: { maxBytes: number; userQuotaBytes: number; workspaceQuotaBytes: number; orphanGraceMs: number };
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
  /** A request body that sends nothing for this long is closed (0: never). */
  bodyIdleTimeoutMs: number;
  ai: AiConfig;
  /** Event bus between instances: Redis when a URL is set, otherwise in-process. */
  bus: { redisUrl: string | undefined; channelPrefix: string };
  notifications: {
    heartbeatMs: number;
    /** VAPID keys from the environment; generated into DATA_DIR/secrets when unset. */
    vapid: { publicKey: string; privateKey: string } | undefined;
    vapidSubject: string;
    /** Also allow loopback push endpoints, http or https (a local test push service only). */
    pushAllowLoopback: boolean;
  };
  /** Contact form messages accepted per sender address per hour. */
  contact: { maxPerHour: number };
  /** Background analysis of stored files (issue 17). */
  analysis: { enabled: boolean; timeoutMs: number };
  /** Thumbnails of new uploads made in the background (issue 16). */
  thumbnails: { inBackground: boolean };
  /** Bearer token required by /metrics; undefined: /metrics is off (404). */
  metricsToken: string | undefined;
}

export type AiServiceKey = 'speechToText' | 'textToSpeech' | 'faceDetection' | 'imageAnalysis';
export type AiProviderChoice = 'local' | 'azure' | 'openai' | 'disabled';

export interface AiConfig {
  /** Which provider runs each service. */
  providers: Record<AiServiceKey, AiProviderChoice>;
  limits: { imageBytes: number; imagePixels: number; audioBytes: number; audioSeconds: number };
  timeoutMs: number;
  queueLimit: number;
  /** Load local models in the background after start-up (default: no, they load on first use). */
  warmUp: boolean;
  /** Unload a local engine after this many ms without requests; 0 = never. */
  idleUnloadMs: number;
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
    warmUp: env.AI_WARM_UP,
    idleUnloadMs: Math.round(env.AI_IDLE_UNLOAD_MINUTES * 60_000),
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
  if (env.OIDC_ADMIN_CLAIM && !env.OIDC_ADMIN_VALUES?.split(',').some((value) => value.trim()))
    problems.push('OIDC_ADMIN_VALUES: required when OIDC_ADMIN_CLAIM is set (comma-separated values that mean admin)');
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
  const adminClaim = env.OIDC_ADMIN_CLAIM ?? (embedded && !env.OIDC_ISSUER ? 'groups' : undefined);
  const adminValues = (env.OIDC_ADMIN_VALUES ?? (env.OIDC_ADMIN_CLAIM ? '' : 'atrium-admins'))
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  const oidc: Config['oidc'] =
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
      ? {
          mode: 'external',
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID,
          clientSecret: env.OIDC_CLIENT_SECRET,
          scopes: env.OIDC_SCOPES,
          providerName: env.OIDC_PROVIDER_NAME,
          adminClaim,
          adminValues,
        }
      : embedded
        ? {
            mode: 'embedded',
            issuer: `${publicUrl}/oidc`,
            clientId: 'atrium',
            clientSecret: createHmac('sha256', sessionSecret).update('atrium dev OIDC client').digest('base64url'),
            scopes: env.OIDC_SCOPES,
            providerName: env.OIDC_PROVIDER_NAME,
            adminClaim,
            adminValues,
          }
        : undefined;

  return {
    env: env.NODE_ENV,
    isProduction,
    host,
    port: env.PORT,
    publicUrl,
    publicUrlConfigured: env.PUBLIC_URL !== undefined,
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
      workspaceQuotaBytes: env.WORKSPACE_QUOTA_BYTES,
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
    bodyIdleTimeoutMs: env.BODY_IDLE_TIMEOUT_MS,
    ai,
    bus: { redisUrl: env.REDIS_URL, channelPrefix: env.REDIS_CHANNEL_PREFIX },
    notifications: {
      heartbeatMs: env.NOTIFICATIONS_HEARTBEAT_MS,
      vapid:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
          ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
          : undefined,
      vapidSubject: env.VAPID_SUBJECT ?? (publicUrl.startsWith('https://') ? publicUrl : 'mailto:admin@localhost'),
      pushAllowLoopback: env.PUSH_ALLOW_LOOPBACK,
    },
    contact: { maxPerHour: env.CONTACT_MAX_PER_HOUR },
    analysis: { enabled: env.ANALYSIS_ENABLED, timeoutMs: Math.round(env.ANALYSIS_TIMEOUT_MINUTES * 60_000) },
    thumbnails: { inBackground: env.THUMBNAILS_IN_BACKGROUND },
    audit: { retentionDays: env.AUDIT_RETENTION_DAYS },
    trash: { retentionDays: env.TRASH_RETENTION_DAYS },
    versions: { kept: env.FILE_VERSIONS_KEPT },
    metricsToken: env.METRICS_TOKEN,
  };
}
