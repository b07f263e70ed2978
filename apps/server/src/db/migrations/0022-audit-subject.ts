import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A file's activity (docs/PRODUCT.md#file-details): `audit_log.subject` names the file or folder an entry is about —
 * its target for file and folder actions, the shared or linked item for share and link entries (whose target is the
 * share or link) — indexed with the time, so one file's activity is one index range. Existing file and folder
 * entries take their target; existing share and link entries the item their details name.
 */
export const m0022AuditSubject: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').addColumn('subject', 'text').execute();
    await db.schema.createIndex('audit_log_subject_at').on('audit_log').columns(['subject', 'at', 'id']).execute();
    await sql`update audit_log set subject = target where target like 'file:%' or target like 'folder:%'`.execute(db);
    const { rows } = await sql<{ id: string; details: string | null }>`
      select id, details from audit_log where action in ('share.created', 'share.revoked', 'link.created')
    `.execute(db);
    for (const row of rows) {
      const subject = subjectOfDetails(row.details);
      if (subject) await sql`update audit_log set subject = ${subject} where id = ${row.id}`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_log_subject_at').execute();
    await db.schema.alterTable('audit_log').dropColumn('subject').execute();
  },
};

/** `file:<id>` or `folder:<id>` from the details of a share (`file`/`folder`) or link (`fileId`/`folderId`) entry. */
function subjectOfDetails(text: string | null): string | undefined {
  if (text === null) return undefined;
  try {
    const details = JSON.parse(text) as Record<string, unknown>;
    const file = details.file ?? details.fileId;
    if (typeof file === 'string') return `file:${file}`;
    const folder = details.folder ?? details.folderId;
    if (typeof folder === 'string') return `folder:${folder}`;
  } catch {
    // not JSON: no subject
  }
  return undefined;
}
