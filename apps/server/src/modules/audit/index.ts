/**
 * The audit module's face: the audit log (docs/PRODUCT.md#admin-console-users-and-audit-log). It holds the one rule
 * of auditing — every audited action in `AUDIT_ACTIONS` is a domain event of the same name carrying an
 * `AuditedChange`, and `audit.subscriptions.ts` is the only code that writes entries — and the admin's reader:
 * `audit.repository.ts` (insert, keyset page on `(at, id)` descending, delete by age), `audit.service.ts` (pages
 * with a base64url cursor, the CSV as an async generator of lines, the retention sweep), `csv.ts` (RFC 4180 and the
 * formula guard), `audit.routes.ts` (`GET /api/admin/audit`, `GET /api/admin/audit.csv` streamed). Retention: job
 * `audit.retention` (daily, once) with `AUDIT_RETENTION_DAYS`. An entry's `subject` (`file:<id>`/`folder:<id>`)
 * is what a file's activity in its details reads.
 *
 * `audit-recorder.ts` holds the shapes (`AuditRecord`, `AuditContext`, `subjectOf`); `audit.subscriptions.ts`
 * `subscribeAuditLog` subscribes to every audited event (`AUDIT_REACTION`) and writes the entry, so a module audits by
 * emitting its event, never by calling this module.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventSubscriber } from '../../events';
import type { Clock } from '../../lib/time';
import { createAuditRepository } from './audit.repository';
import { registerAuditRoutes } from './audit.routes';
import { createAuditService, type AuditServiceDeps } from './audit.service';
import { subscribeAuditLog } from './audit.subscriptions';

export interface AuditModuleDeps {
  db: Db;
  clock: Clock;
  retentionDays: number;
  log: AuditServiceDeps['log'];
  events: EventSubscriber;
}

/** Built first among the modules: its subscription records an audited change before any other reaction runs. */
export function createAuditModule(app: FastifyInstance, { db, events, ...deps }: AuditModuleDeps) {
  const audit = createAuditService({ repo: createAuditRepository(db), ...deps });
  subscribeAuditLog(events, audit);
  registerAuditRoutes(app, { audit });
  return { audit };
}
