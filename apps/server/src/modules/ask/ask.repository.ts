import { sql } from 'kysely';
import type { UserActor } from '../../auth/actor';
import { readableScope } from '../../auth/access-facts';
import type { Db, Dialect } from '../../db';
import type { Passage } from './passages';
import type { MemberRole } from '@atrium/contracts';

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

export interface VectorRow extends PassageRow {
  vector: Uint8Array;
}

/** Where a retrieval looks: the asker's readable files, optionally one workspace or one file. */
export interface Within {
  workspaceId?: string | undefined;
  fileId?: string | undefined;
}

const toVector = (bytes: Uint8Array): Float32Array => {
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
};
export const vectorOf = toVector;
const toBytes = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/**
 * The queries of "Ask your files" (migration 0040), over both engines. Who may read a passage is its file's search
 * document (`search_documents`, kept in step with moves, shares, trash and deletes by the search triggers) under
 * `readableScope`: the one visibility condition search uses, in the query itself.
 */
export function createAskRepository(db: Db, dialect: Dialect) {
  const columns = sql`p.passage_id, p.file_id, d.name as file_name, d.content_type, p.text, p.page, p.start_seconds,
    p.end_seconds`;
  function visible(actor: UserActor, within: Within) {
    const scope = readableScope(actor);
    const conditions = [scope.document('d'), sql`d.trashed_at is null`];
    if (within.workspaceId !== undefined) conditions.push(sql`d.workspace_id = ${within.workspaceId}`);
    if (within.fileId !== undefined) conditions.push(sql`p.file_id = ${within.fileId}`);
    return { ctes: scope.ctes, where: sql.join(conditions, sql` and `) };
  }
  const numeric = <T extends PassageRow>(row: T): T => ({
    ...row,
    passage_id: Number(row.passage_id),
    page: row.page === null ? null : Number(row.page),
    start_seconds: row.start_seconds === null ? null : Number(row.start_seconds),
    end_seconds: row.end_seconds === null ? null : Number(row.end_seconds),
  });

  return {
    /** Replaces a file's passages (and drops their vectors); nothing when the file is gone. */
    async replace(fileId: string, passages: Passage[]): Promise<number[]> {
      return db.transaction().execute(async (trx) => {
        await sql`delete from passages where file_id = ${fileId}`.execute(trx);
        const exists = await sql`select 1 from files where id = ${fileId}`.execute(trx);
        if (exists.rows.length === 0) return [];
        const ids: number[] = [];
        for (const [ordinal, p] of passages.entries()) {
          const words = dialect === 'postgres' ? sql`, atrium_search_words(${p.text}::text)` : sql``;
          const { rows } = await sql<{ passage_id: number }>`insert into passages
              (file_id, ordinal, text, page, start_seconds, end_seconds, region
              ${dialect === 'postgres' ? sql`, text_tsv` : sql``})
            values (${fileId}, ${ordinal}, ${p.text}, ${p.page}, ${p.startSeconds}, ${p.endSeconds}, ${p.region}
              ${words})
            returning passage_id`.execute(trx);
          if (rows[0]) ids.push(Number(rows[0].passage_id));
        }
        return ids;
      });
    },

    /** Stores passages' vectors (made by `label`). */
    async setVectors(label: string, vectors: { passageId: number; vector: Float32Array }[]): Promise<void> {
      for (const { passageId, vector } of vectors)
        await sql`update passages set vector = ${toBytes(vector)}, vector_label = ${label}
          where passage_id = ${passageId}`.execute(db);
    },

    /**
     * The passages `actor` may read matching any of `terms` (each a prefix when `prefix`), best first by the engine's
     * ranking: FTS5 `bm25` on SQLite, `ts_rank_cd` on PostgreSQL.
     */
    async lexical(
      actor: UserActor,
      terms: string[],
      within: Within,
      limit: number,
      prefix = true,
    ): Promise<PassageRow[]> {
      if (terms.length === 0) return [];
      const scope = visible(actor, within);
      const pattern = (term: string) => (prefix && term.length >= 4 ? '*' : '');
      if (dialect === 'sqlite') {
        // Terms hold only letters, digits and marks (`searchTerms`): quoting them cannot inject FTS5 syntax.
        const match = terms.map((term) => `"${term}"${pattern(term)}`).join(' OR ');
        const { rows } = await sql<PassageRow>`
          with recursive ${scope.ctes}
          select ${columns}
          from passages_fts
          join passages p on p.passage_id = passages_fts.rowid
          join search_documents d on d.item_id = p.file_id and d.kind = 'file'
          where passages_fts match ${match} and ${scope.where}
          order by bm25(passages_fts), p.passage_id
          limit ${limit}`.execute(db);
        return rows.map(numeric);
      }
      const tsTerms = terms.map((term) => `'${term}'${pattern(term) ? ':*' : ''}`);
      const query = tsTerms.join(' | ');
      // `ts_rank_cd` knows no inverse document frequency (a common word weighs as much as a rare one, unlike FTS5's
      // bm25): each term present adds BM25's idf, from the document frequencies kept in `passage_terms` (migration
      // 0042; a prefix's is the sum of its words', at most every passage), and the engine's rank orders within that.
      // A term's words are the keys from it to it (a prefix: to it followed by the last code point), an index range.
      const upTo = terms.map((term) => (pattern(term) ? `${term}\u{10FFFF}` : term));
      const { rows: counts } = await sql<{ n: number | string | null; df: (number | string | null)[] }>`
        select (select passages from passage_terms where term = '') as n,
          array(select (select coalesce(sum(passages), 0) from passage_terms where term between l.low and l.high)
            from unnest(${terms}::text[], ${upTo}::text[]) with ordinality as l(low, high, i) order by l.i) as df`.execute(
        db,
      );
      const total = Number(counts[0]?.n ?? 0);
      const weight = sql.join(
        tsTerms.map((t, i) => {
          const df = Math.min(Number(counts[0]?.df[i] ?? 0), total);
          const idf = Math.log((total - df + 0.5) / (df + 0.5) + 1);
          return sql`case when p.text_tsv @@ to_tsquery('simple', ${t}) then ${idf}::float8 else 0 end`;
        }),
        sql` + `,
      );
      const { rows } = await sql<PassageRow>`
        with recursive ${scope.ctes}
        select ${columns}
        from passages p
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where p.text_tsv @@ to_tsquery('simple', ${query}) and ${scope.where}
        order by ${weight} desc, ts_rank_cd(p.text_tsv, to_tsquery('simple', ${query}), 1) desc, p.passage_id
        limit ${limit}`.execute(db);
      return rows.map(numeric);
    },

    /** Every passage `actor` may read with a vector made by `label` (scanned in process). */
    async withVectors(actor: UserActor, label: string, within: Within): Promise<VectorRow[]> {
      const scope = visible(actor, within);
      const { rows } = await sql<VectorRow>`
        with recursive ${scope.ctes}
        select ${columns}, p.vector
        from passages p
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where p.vector_label = ${label} and ${scope.where}`.execute(db);
      return rows.map(numeric);
    },

    /** `actor`'s role in workspace `workspaceId`; undefined when they are not a member (or it does not exist). */
    async memberRole(actor: UserActor, workspaceId: string): Promise<MemberRole | undefined> {
      const { rows } = await sql<{ role: MemberRole }>`select role from workspace_members
        where workspace_id = ${workspaceId} and user_id = ${actor.id}`.execute(db);
      return rows[0]?.role;
    },

    /** A file's passages in reading order, when `actor` may read it. */
    async ofFile(actor: UserActor, fileId: string): Promise<PassageRow[]> {
      const scope = visible(actor, { fileId });
      const { rows } = await sql<PassageRow>`
        with recursive ${scope.ctes}
        select ${columns}
        from passages p
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where ${scope.where}
        order by p.ordinal`.execute(db);
      return rows.map(numeric);
    },

    /** Passages without a vector of `label`, a batch at a time. */
    async missingVectors(label: string, limit: number): Promise<{ passage_id: number; text: string }[]> {
      const { rows } = await sql<{ passage_id: number; text: string }>`
        select passage_id, text from passages where vector_label is null or vector_label <> ${label}
        order by passage_id limit ${limit}`.execute(db);
      return rows.map((row) => ({ ...row, passage_id: Number(row.passage_id) }));
    },

    /** Files (after `after`, in id order) analysed to the end but without passages: the backfill's work. */
    async analysedWithoutPassages(after: string, limit: number): Promise<string[]> {
      const { rows } = await sql<{ id: string }>`
        select f.id from files f join file_insights i on i.file_id = f.id
        where f.id > ${after} and i.status = 'done' and i.content_sha = f.sha256
          and not exists (select 1 from passages p where p.file_id = f.id)
        order by f.id limit ${limit}`.execute(db);
      return rows.map((row) => row.id);
    },
  };
}

export type AskRepository = ReturnType<typeof createAskRepository>;
