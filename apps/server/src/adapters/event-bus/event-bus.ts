/**
 * Publish/subscribe between server instances. Messages are strings (callers
 * serialise); delivery is at most once, in publish order per publisher.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` for every message on `channel` until the returned function is called. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /** Readiness: rejects when the bus cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** redis:// or rediss:// URL; the in-process bus without it. */
  redisUrl?: string | undefined;
  /** Prefixed to every channel name, so several deployments (or test runs) can share one Redis. */
  channelPrefix?: string;
  onError?: (error: unknown) => void;
}
