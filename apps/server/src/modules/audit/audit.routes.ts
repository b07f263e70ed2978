import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { AuditService } from './audit.service';
import { routesOf } from '../../plugins/route';

/** /api/admin/audit (a page as JSON) and /api/admin/audit.csv (everything matching, streamed). Admins only. */
export function registerAuditRoutes(app: FastifyInstance, { audit }: { audit: AuditService }) {
  const tags = ['admin'];

  const { audit: page, auditCsv: csv } = ENDPOINTS.admin;
  const serve = routesOf(app, { config: adminOnly('audit'), tags });

  serve(page, {
    summary: 'The audit log, newest first, filtered by actor, action, target and time',
    errors: [400],
    handler: async (request) => audit.page(request.query),
  });

  serve(csv, {
    summary: 'The audit log as CSV (same filters; every matching entry, streamed)',
    description:
      "text/csv; every cell quoted; a `'` goes before `=`, `+`, `-`, `@`, tab or CR at the start of a value or after `,` `;` tab CR LF inside it (formula injection).",
    handler: async (request, reply) => {
      const lines = audit.csv(request.query);
      // Read the first line before answering, so a bad filter is still a JSON 400.
      const first = await lines.next();
      async function* all() {
        if (!first.done) yield first.value;
        yield* lines;
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(all()));
    },
  });
}
