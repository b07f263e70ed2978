import { sql } from 'kysely';
import type { UserActor } from '../../auth/actor';
import type { Db, Dialect } from '../../db';
import { createLexicalSearch } from './lexical.repository';
import { numericRow, passageColumns, visibleTo, type PassageRow, type Within } from './passage-scope.repository';
import type { Passage } from './passages';
import { toBytes } from './vector-bytes';
import { nextVectorSeq } from './vector-index.repository';

export type { PassageRow, Within } from './passage-scope.repository';
export type { Vocabulary } from './lexical.repository';

export interface VectorRow extends PassageRow {
  vector: Uint8Array;
}

/**
 * The queries of "Ask your files" (migration 0040), over both engines: the passages themselves, their vectors, and
 * the lexical search (`lexical.repository.ts`). Who may read a passage is `visibleTo`, in the query itself.
 */
export function createAskRepository(db: Db, dialect: Dialect) {
  return {
    ...createLexicalSearch(db, dialect),

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

    /** Stores passages' vectors (made by `label`), each with its cell in the vector index (`vector-index.ts`). */
    async setVectors(
      label: string,
      vectors: { passageId: number; vector: Float32Array; cell: number | null }[],
    ): Promise<void> {
      for (const { passageId, vector, cell } of vectors) {
        const values =
          dialect === 'postgres'
            ? sql`${label}::text, ${toBytes(vector)}::bytea, ${cell}::integer, ${nextVectorSeq(dialect)}`
            : sql`${label}, ${toBytes(vector)}, ${cell}, ${nextVectorSeq(dialect)}`;
        // Only while the passage exists (it may have been cut again meanwhile).
        await sql`insert into passage_vectors (passage_id, label, vector, cell, seq)
          select passage_id, ${values} from passages where passage_id = ${passageId}
          on conflict (passage_id) do update set label = excluded.label, vector = excluded.vector,
            cell = excluded.cell, seq = excluded.seq`.execute(db);
      }
    },

    /** Every passage `actor` may read with a vector of `label`, with it (when the nearest hold too few, `retrieval.ts`). */
    async withVectors(actor: UserActor, label: string, within: Within): Promise<VectorRow[]> {
      const scope = visibleTo(actor, within);
      const { rows } = await sql<VectorRow>`
        with recursive ${scope.ctes}
        select ${passageColumns}, v.vector
        from passages p
        join passage_vectors v on v.passage_id = p.passage_id and v.label = ${label}
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where ${scope.where}`.execute(db);
      return rows.map(numericRow);
    },

    /** A file's passages in reading order, when `actor` may read it. */
    async ofFile(actor: UserActor, fileId: string): Promise<PassageRow[]> {
      const scope = visibleTo(actor, { fileId });
      const { rows } = await sql<PassageRow>`
        with recursive ${scope.ctes}
        select ${passageColumns}
        from passages p
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where ${scope.where}
        order by p.ordinal`.execute(db);
      return rows.map(numericRow);
    },

    /** Passages without a vector of `label`, a batch at a time. */
    async missingVectors(label: string, limit: number): Promise<{ passage_id: number; text: string }[]> {
      const { rows } = await sql<{ passage_id: number; text: string }>`
        select p.passage_id, p.text from passages p
        where not exists (select 1 from passage_vectors v where v.passage_id = p.passage_id and v.label = ${label})
        order by p.passage_id limit ${limit}`.execute(db);
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
