import { z } from 'zod';
import { booleanString, documented } from './env';

// Notifications: the event bus between instances (Redis), the live streams and Web Push.

/** The bus between instances, the notification streams and Web Push. */
export const notificationsEnv = {
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
};

type NotificationsEnv = z.infer<z.ZodObject<typeof notificationsEnv>>;

/** Event bus between instances: Redis when a URL is set, otherwise in-process. */
export type BusConfig = { redisUrl: string | undefined; channelPrefix: string };

export interface NotificationsConfig {
  heartbeatMs: number;
  /** VAPID keys from the environment; generated into DATA_DIR/secrets when unset. */
  vapid: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /** Also allow loopback push endpoints, http or https (a local test push service only). */
  pushAllowLoopback: boolean;
}

/** The VAPID keys come as a pair. */
export function checkVapid(env: NotificationsEnv, problems: string[]): void {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    problems.push('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
}

export function resolveBus(env: NotificationsEnv): BusConfig {
  return { redisUrl: env.REDIS_URL, channelPrefix: env.REDIS_CHANNEL_PREFIX };
}

export function resolveNotifications(env: NotificationsEnv, publicUrl: string): NotificationsConfig {
  return {
    heartbeatMs: env.NOTIFICATIONS_HEARTBEAT_MS,
    vapid:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: env.VAPID_SUBJECT ?? (publicUrl.startsWith('https://') ? publicUrl : 'mailto:admin@localhost'),
    pushAllowLoopback: env.PUSH_ALLOW_LOOPBACK,
  };
}
