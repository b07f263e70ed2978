import webpush from 'web-push';
import { ensureLocalSecret } from '../../config';

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** sent: accepted by the push service; gone: the subscription expired (404/410), drop it; failed: try later. */
export type PushOutcome = { status: 'sent' } | { status: 'gone' } | { status: 'failed'; reason: string };

export interface PushSender {
  readonly publicKey: string;
  /** Whether an endpoint may be used (https only, unless http is allowed for a local test service). */
  accepts(endpoint: string): boolean;
  send(target: PushTarget, payload: string): Promise<PushOutcome>;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** VAPID keys from the configuration, or generated once into DATA_DIR/secrets/vapid-keys.json. */
export function loadVapidKeys(configured: VapidKeys | undefined, dataDir: string): VapidKeys {
  if (configured) return configured;
  const stored = ensureLocalSecret(dataDir, 'vapid-keys.json', () => JSON.stringify(webpush.generateVAPIDKeys()));
  const parsed = JSON.parse(stored) as Partial<VapidKeys>;
  if (!parsed.publicKey || !parsed.privateKey) throw new Error('DATA_DIR/secrets/vapid-keys.json is not valid');
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

const PUSH_TIMEOUT_MS = 10_000;

/**
 * Web Push (RFC 8030 + 8291 aes128gcm + 8292 VAPID) through the web-push
 * library's request builder and Node's fetch. web-push's own sender speaks
 * https only; building the request and sending it ourselves also lets a local
 * test push service on http receive it when `allowHttp` is set.
 */
export function createWebPushSender(options: {
  keys: VapidKeys;
  subject: string;
  allowHttp: boolean;
  ttlSeconds?: number;
}): PushSender {
  const accepts = (endpoint: string) => {
    const { protocol } = new URL(endpoint);
    return protocol === 'https:' || (options.allowHttp && protocol === 'http:');
  };
  return {
    publicKey: options.keys.publicKey,
    accepts,
    async send(target, payload) {
      if (!accepts(target.endpoint)) return { status: 'gone' };
      let details;
      try {
        details = webpush.generateRequestDetails(target, payload, {
          vapidDetails: { subject: options.subject, ...options.keys },
          TTL: options.ttlSeconds ?? 24 * 60 * 60,
          contentEncoding: 'aes128gcm',
        });
      } catch {
        // The browser's keys do not form a valid subscription: it can never be delivered.
        return { status: 'gone' };
      }
      try {
        const response = await fetch(details.endpoint, {
          method: details.method,
          headers: details.headers as Record<string, string>,
          body: details.body ?? null,
          signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
          redirect: 'error',
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.status === 404 || response.status === 410) return { status: 'gone' };
        if (!response.ok) return { status: 'failed', reason: `push service answered ${response.status}` };
        return { status: 'sent' };
      } catch (error) {
        return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
