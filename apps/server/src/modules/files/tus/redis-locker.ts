import { randomBytes } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import { Redis } from 'ioredis';
import type { EventBus } from '../../../adapters/event-bus';

/** Bus channel on which an instance asks the holder of an upload's lock to let go. */
export const TUS_RELEASE_CHANNEL = 'tus-lock-release';

export interface RedisLockerOptions {
  url: string;
  /** Prefix of the lock keys (the deployment's Redis prefix). */
  keyPrefix: string;
  /** Carries release requests to the instance holding a lock. */
  bus: EventBus;
  /** How long a lock lives without renewal: an instance that dies holds it at most this long. */
  ttlMs?: number;
  /** How long `lock()` waits before failing with ERR_LOCK_TIMEOUT (tus answers 500 "failed to acquire lock"). */
  acquireTimeoutMs?: number;
  /** Pause between attempts while another request holds the lock. */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

// Deletes / extends the key only while it still holds our token.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * tus upload locks shared by every instance through Redis, with the same
 * semantics as @tus/server's MemoryLocker: a request that finds the upload
 * locked asks the holder to release it (tus then ends the holder's PATCH with
 * what it has received so far, after its drain delay) and takes over; it waits
 * at most `acquireTimeoutMs`.
 *
 * A lock is `SET key token NX PX ttl`, renewed every ttl/3 while held and
 * deleted only by its token, so an instance that crashes holds it for at most
 * `ttlMs`. Release requests travel on the event bus; the instance holding the
 * lock calls that request's `cancelReq` callback.
 */
export async function createRedisLocker(options: RedisLockerOptions): Promise<Locker & { close(): Promise<void> }> {
  const ttlMs = options.ttlMs ?? 30_000;
  const acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
  const retryMs = options.retryMs ?? 50;
  const onError = options.onError ?? (() => undefined);
  const redis = new Redis(options.url, {
    connectionName: 'atrium-tus-locks',
    lazyConnect: true,
    maxRetriesPerRequest: 3,
  });
  redis.on('error', onError);
  await redis.connect();

  /** Locks this instance holds: upload id → how to ask its request to release it. */
  const held = new Map<string, RequestRelease>();
  const unsubscribe = await options.bus.subscribe(TUS_RELEASE_CHANNEL, (id) => {
    const release = held.get(id);
    if (release) Promise.resolve(release()).catch(onError);
  });
  const keyOf = (id: string) => `${options.keyPrefix}tus-lock:${id}`;
  /** Renewal timers of the locks held here (stopped on close). */
  const renewals = new Set<NodeJS.Timeout>();

  class RedisLock implements Lock {
    private token = randomBytes(16).toString('hex');
    private renewal: NodeJS.Timeout | undefined;
    private release: RequestRelease | undefined;

    constructor(private readonly id: string) {}

    async lock(signal: AbortSignal, cancelReq: RequestRelease): Promise<void> {
      const key = keyOf(this.id);
      const deadline = Date.now() + acquireTimeoutMs;
      let asked = 0;
      for (;;) {
        if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
        if ((await redis.set(key, this.token, 'PX', ttlMs, 'NX')) === 'OK') break;
        if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        // Ask the holder to let go, again now and then in case a message was missed.
        if (Date.now() - asked > 1000) {
          asked = Date.now();
          await options.bus.publish(TUS_RELEASE_CHANNEL, this.id).catch(onError);
        }
        await sleep(retryMs, signal);
      }
      this.release = cancelReq;
      held.set(this.id, cancelReq);
      this.renewal = setInterval(
        () => {
          redis
            .eval(RENEW, 1, key, this.token, String(ttlMs))
            .then((kept) => {
              if (kept === 0) clearInterval(this.renewal);
            })
            .catch(onError);
        },
        Math.max(Math.floor(ttlMs / 3), 10),
      );
      this.renewal.unref();
      renewals.add(this.renewal);
    }

    async unlock(): Promise<void> {
      clearInterval(this.renewal);
      if (this.renewal) renewals.delete(this.renewal);
      if (held.get(this.id) === this.release) held.delete(this.id);
      await redis.eval(RELEASE, 1, keyOf(this.id), this.token);
    }
  }

  return {
    newLock: (id) => new RedisLock(id),
    async close() {
      renewals.forEach((timer) => clearInterval(timer));
      renewals.clear();
      await unsubscribe().catch(onError);
      await redis.quit().catch(onError);
    },
  };
}
