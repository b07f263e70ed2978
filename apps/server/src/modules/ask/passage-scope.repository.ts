import { sql } from 'kysely';
import type { UserActor } from '../../auth/actor';
import { readableScope } from '../../auth/access-facts';

/** A passage the asker may read, as retrieval ranks it. */
export interface PassageRow {
  passage_id: number;
  file_id: string;
  file_name: string;
  content_type: string | null;
  text: string;
  page: number | null;
  start_seconds: number | null;
  end_seconds: number | null;
}

/** Where a retrieval looks: the asker's readable files, optionally one workspace or one file. */
export interface Within {
  workspaceId?: string | undefined;
  fileId?: string | undefined;
}

/** The columns of a `PassageRow`, from `passages p` and its file's search document `d`. */
export const passageColumns = sql`p.passage_id, p.file_id, d.name as file_name, d.content_type, p.text, p.page,
  p.start_seconds, p.end_seconds`;

/**
 * Who may read a passage: its file's search document `d` (`search_documents`, kept in step with moves, shares, trash
 * and deletes by the search triggers) under `readableScope`, the one visibility condition search uses; `ctes` opens
 * the query's `with recursive` list, `where` is the condition (on `d`, and `p` for one file).
 */
export function visibleTo(actor: UserActor, within: Within) {
  const scope = readableScope(actor);
  const conditions = [scope.document('d'), sql`d.trashed_at is null`];
  if (within.workspaceId !== undefined) conditions.push(sql`d.workspace_id = ${within.workspaceId}`);
  if (within.fileId !== undefined) conditions.push(sql`p.file_id = ${within.fileId}`);
  return { ctes: scope.ctes, where: sql.join(conditions, sql` and `) };
}

/** A row as the driver gave it with its numbers as numbers (PostgreSQL gives bigints as strings). */
export const numericRow = <T extends PassageRow>(row: T): T => ({
  ...row,
  passage_id: Number(row.passage_id),
  page: row.page === null ? null : Number(row.page),
  start_seconds: row.start_seconds === null ? null : Number(row.start_seconds),
  end_seconds: row.end_seconds === null ? null : Number(row.end_seconds),
});
