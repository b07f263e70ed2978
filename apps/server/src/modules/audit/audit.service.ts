import { decodeKeysetCursor, encodeKeysetCursor } from '../../lib/keyset-cursor';
import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditPage, AuditQuery } from '@atrium/contracts';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import { subjectOf, type AuditRecord, type AuditRecorder } from './audit-recorder';
import type { AuditFilter, AuditRepository, AuditRow } from './audit.repository';
import { csvLine } from './csv';

export interface AuditServiceDeps {
  repo: AuditRepository;
  clock: Clock;
  retentionDays: number;
  log: { error(details: object, message: string): void };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CSV_BATCH = 500;
export const AUDIT_CSV_COLUMNS = [
  'at',
  'actor',
  'action',
  'target',
  'ip',
  'user_agent',
  'request_id',
  'details',
] as const;

const encodeCursor = (row: AuditRow) => encodeKeysetCursor(row.at, row.id);
const decodeCursor = decodeKeysetCursor;

const parseDetails = (text: string | null): Record<string, unknown> | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { raw: text };
  }
};

/** The wire shape of an entry. */
export const presentAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor: row.actor,
  action: row.action as AuditEntry['action'],
  target: row.target,
  ip: row.ip,
  userAgent: row.user_agent,
  requestId: row.request_id,
  details: parseDetails(row.details),
});

const filterOf = (query: Omit<AuditQuery, 'limit' | 'cursor'>): AuditFilter => {
  const from = query.from === undefined ? undefined : iso(new Date(query.from));
  const to = query.to === undefined ? undefined : iso(new Date(query.to));
  if (from !== undefined && to !== undefined && from > to)
    throw new AppError('BAD_REQUEST', '`from` must not be later than `to`.');
  return { actor: query.actor, action: query.action, target: query.target, from, to };
};

/** The audit log: append (the recorder its subscriptions use), read by admins, swept by age. */
export const createAuditService = ({ repo, clock, retentionDays, log }: AuditServiceDeps) => {
  const recorder: AuditRecorder = {
    async record(entry: AuditRecord) {
      try {
        await repo.insert({
          id: randomUUID(),
          at: iso(clock.now()),
          actor: entry.actor,
          action: entry.action,
          target: entry.target ?? null,
          ip: entry.ip ?? null,
          user_agent: entry.userAgent?.slice(0, 512) ?? null,
          request_id: entry.requestId ?? null,
          details: entry.details === undefined ? null : JSON.stringify(entry.details),
          subject: subjectOf(entry),
        });
      } catch (error) {
        log.error({ err: error, action: entry.action }, 'could not write an audit entry');
      }
    },
  };

  return {
    recorder,

    /** One page, newest first. */
    async page(query: AuditQuery): Promise<AuditPage> {
      const filter = filterOf(query);
      if (query.cursor !== undefined) filter.before = decodeCursor(query.cursor);
      const rows = await repo.page(filter, query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        entries: page.map(presentAuditEntry),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      };
    },

    /** The whole filtered log as CSV lines (header first), read in batches so memory stays flat. */
    async *csv(query: Omit<AuditQuery, 'limit' | 'cursor'>): AsyncGenerator<string> {
      const filter = filterOf(query);
      yield csvLine(AUDIT_CSV_COLUMNS);
      for (;;) {
        const rows = await repo.page(filter, CSV_BATCH);
        for (const row of rows)
          yield csvLine([
            row.at,
            row.actor,
            row.action,
            row.target,
            row.ip,
            row.user_agent,
            row.request_id,
            row.details,
          ]);
        const last = rows.at(-1);
        if (rows.length < CSV_BATCH || !last) return;
        filter.before = { at: last.at, id: last.id };
      }
    },

    /** Deletes entries older than the retention period (`AUDIT_RETENTION_DAYS`). */
    sweep: () => repo.deleteOlderThan(iso(new Date(clock.now().getTime() - retentionDays * DAY_MS))),
  };
};

export type AuditService = ReturnType<typeof createAuditService>;
