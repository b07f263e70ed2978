// What buildApp (app.ts) takes besides the configuration, and what it decorates the Fastify instance with.
import type { Config } from './config';
import type { DatabaseHandle } from './db';
import type { DomainEventHub } from './events';
import type { Scheduler } from './jobs';
import type { JobQueueOptions } from './jobs/queue';
import type { Clock } from './lib/time';
import type { AnalysisService } from './modules/analysis';
import type { LlmService } from './modules/llm';
import type { NotificationHub } from './modules/notifications';
import type { SearchService } from './modules/search';
import type { AnswerGenerator, AskService, PassageEmbedder } from './modules/ask';

export interface AppOverrides {
  clock?: Clock;
  /** Pino options or false; tests pass false to keep output quiet. */
  logger?: boolean | Record<string, unknown>;
  /** How often leftovers of interrupted uploads are swept (tests; default: half the grace period, 1 min–1 h). */
  uploadSweepIntervalMs?: number;
  /** The background job queue's figures for the system screen (tests; default: the job queue's `stats()`). */
  queueStats?: () => Promise<{ queued: number; running: number; failed: number }>;
  /** The job queue's tuning, over every kind's own (tests). */
  jobQueue?: Pick<JobQueueOptions, 'pollMs' | 'leaseMs' | 'backoffMs' | 'maxAttempts'>;
  /** How long file-drop arrivals are gathered into one notice (tests; default DROP_NOTICE_WINDOW_MS). */
  dropNoticeWindowMs?: number;
  /** The email outbox's retry tuning (tests). */
  mailOutbox?: { backoffMs?: number; maxAttempts?: number };
  /** The models of "Ask your files" (tests; default: none, extractive and lexical only). */
  askModels?: { generator?: () => AnswerGenerator | null; embedder?: () => PassageEmbedder | null };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    notificationHub: NotificationHub;
    /** The scheduled jobs (jobs/): tests run one at once with `scheduler.runNow(name)`. */
    scheduler: Scheduler;
    /** Background analysis of stored files (modules/analysis): its queue, for tests. */
    analysis: AnalysisService;
    /** Search: `searchIndex.setContent(fileId, text)` sets a file's searchable content (tests). */
    searchIndex: SearchService;
    /** Answer generation and embeddings for Ask (modules/llm): `currentGenerator()`, `currentEmbedder()`. */
    llm: LlmService;
    /** "Ask your files": its passages and answers (tests). */
    ask: AskService;
    /** The domain events hub: tests subscribe to observe what modules announce. */
    events: DomainEventHub;
  }
}
