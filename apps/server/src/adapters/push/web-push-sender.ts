import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import { ensureLocalSecret } from '../../config';
import { checkPushEndpoint, pinnedLookup, systemResolver, type ResolvedAddress, type Resolver } from './push-endpoint';

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** sent: accepted by the push service; gone: the subscription expired (404/410), drop it; failed: try later. */
export type PushOutcome = { status: 'sent' } | { status: 'gone' } | { status: 'failed'; reason: string };

export interface PushSender {
  readonly publicKey: string;
  /**
   * Why the server may not send to this endpoint (a message for a 400), or null when it may:
   * https, a host name whose addresses are all public (`push-endpoint.ts`).
   */
  refusal(endpoint: string): Promise<string | null>;
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
 * Web Push (RFC 8030 + 8291 aes128gcm + 8292 VAPID): web-push builds the
 * encrypted, signed request; we send it with node:https. Every send checks the
 * endpoint again (its host is resolved now, so a name that has moved to a
 * private address is refused) and connects only to the addresses it checked.
 * `allowLoopback` also allows a local test push service (http or https).
 */
export function createWebPushSender(options: {
  keys: VapidKeys;
  subject: string;
  allowLoopback: boolean;
  ttlSeconds?: number;
  /** DNS resolution (tests replace it: public names do not resolve offline). */
  resolve?: Resolver;
}): PushSender {
  const policy = { allowLoopback: options.allowLoopback, resolve: options.resolve ?? systemResolver };
  return {
    publicKey: options.keys.publicKey,
    async refusal(endpoint) {
      const checked = await checkPushEndpoint(endpoint, policy);
      return checked.ok ? null : checked.message;
    },
    async send(target, payload) {
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
      const checked = await checkPushEndpoint(target.endpoint, policy);
      if (!checked.ok) {
        // Refused by policy (e.g. the host now resolves to a private address): drop it; unresolvable: try later.
        return checked.permanent ? { status: 'gone' } : { status: 'failed', reason: checked.message };
      }
      try {
        const status = await post(checked.url, checked.addresses, details.headers, details.body);
        if (status === 404 || status === 410) return { status: 'gone' };
        if (status < 200 || status > 299) return { status: 'failed', reason: `push service answered ${status}` };
        return { status: 'sent' };
      } catch (error) {
        return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

/** POSTs to `url`, connecting only to `addresses` (redirects are not followed); resolves with the status. */
function post(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string | number>,
  body: Buffer | null | undefined,
): Promise<number> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers, lookup: pinnedLookup(addresses), signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) },
      (res) => {
        // Only the status matters: the body is drained (and cut at the time-out), never waited for.
        resolve(res.statusCode ?? 0);
        res.on('error', () => undefined);
        res.resume();
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
