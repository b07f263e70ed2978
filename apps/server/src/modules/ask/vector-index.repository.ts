import { sql } from 'kysely';
import type { Db, Dialect } from '../../db';
import type { Within } from './passage-scope.repository';
import { toBytes, toVector } from './vector-bytes';
import { CELL_SPAN } from './vector-cells';

/** One cell's centre, as stored (migration 0047). */
export interface StoredCentre {
  generation: number;
  cell: number;
  centroid: Float32Array;
}

/** A passage's vector as the index reads it: its cell key and the number of its last change (`seq`). */
export interface StoredVector {
  passageId: number;
  vector: Float32Array;
  cell: number | null;
  seq: number;
}

/**
 * Which passages' vectors a question reads: those in the cells `keys` (generation × CELL_SPAN + cell), those in no
 * cell (written before any training) and those in a cell of a training already retired (below `below`).
 */
export interface CellFilter {
  keys: number[];
  below: number;
}

/** The number of a change to a passage's vector or cell (migration 0047). */
export const nextVectorSeq = (dialect: Dialect) =>
  dialect === 'postgres'
    ? sql`nextval('passage_vector_changes')`
    : sql`(select coalesce(max(seq), 0) + 1 from passage_vectors)`;

const storedVector = (row: {
  passage_id: number | string;
  vector: Uint8Array;
  cell: number | string | null;
  seq: number | string | null;
}): StoredVector => ({
  passageId: Number(row.passage_id),
  vector: toVector(row.vector),
  cell: row.cell === null ? null : Number(row.cell),
  seq: Number(row.seq ?? 0),
});

/**
 * The queries of Ask's vector index (migration 0047, `vector-index.ts`): the cells' centres per embedder and
 * training, and each passage's cell.
 */
export function createVectorIndexRepository(db: Db, dialect: Dialect) {
  const range = (generation: number) => ({ from: generation * CELL_SPAN, to: (generation + 1) * CELL_SPAN });
  return {
    /** The trainings kept for `label` and their cells' count, oldest first: what a cached copy is checked against. */
    async generations(label: string): Promise<{ generation: number; cells: number }[]> {
      const { rows } = await sql<{ generation: number; cells: number | string }>`
        select generation, count(*) as cells from vector_cells where label = ${label}
        group by generation order by generation`.execute(db);
      return rows.map((row) => ({ generation: Number(row.generation), cells: Number(row.cells) }));
    },

    /** Every centre kept for `label`. */
    async centres(label: string): Promise<StoredCentre[]> {
      const { rows } = await sql<{ generation: number; cell: number; centroid: Uint8Array }>`
        select generation, cell, centroid from vector_cells where label = ${label}
        order by generation, cell`.execute(db);
      return rows.map((row) => ({
        generation: Number(row.generation),
        cell: Number(row.cell),
        centroid: toVector(row.centroid),
      }));
    },

    /** How many passages have a vector of `label`. */
    async count(label: string): Promise<number> {
      const { rows } = await sql<{ vectors: number | string }>`
        select count(*) as vectors from passage_vectors where label = ${label}`.execute(db);
      return Number(rows[0]?.vectors ?? 0);
    },

    /** About `size` vectors of `label`, spread evenly over the passages (every n-th id). */
    async sample(label: string, size: number, total: number): Promise<Float32Array[]> {
      const every = Math.max(1, Math.floor(total / size));
      const { rows } = await sql<{ vector: Uint8Array }>`
        select vector from passage_vectors where label = ${label} and passage_id % ${every} = 0
        limit ${size}`.execute(db);
      return rows.map((row) => toVector(row.vector));
    },

    /** Keeps a training's centres. */
    async addCentres(label: string, generation: number, centres: Float32Array[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [cell, centre] of centres.entries())
          await sql`insert into vector_cells (label, generation, cell, centroid)
            values (${label}, ${generation}, ${cell}, ${toBytes(centre)})`.execute(trx);
      });
    },

    /**
     * Every passage with a vector of `label` within one file, or on PostgreSQL one workspace (migration 0046),
     * with `cells` only those in the cells it names: what a question ranks without the copy in memory.
     */
    async vectors(label: string, within: Within, cells: CellFilter | null): Promise<StoredVector[]> {
      const narrower = [sql`v.label = ${label}`];
      if (cells)
        narrower.push(sql`(v.cell in (${sql.join(cells.keys.length > 0 ? cells.keys : [-1])})
          or v.cell is null or v.cell < ${cells.below})`);
      if (within.fileId !== undefined) narrower.push(sql`p.file_id = ${within.fileId}`);
      if (dialect === 'postgres' && within.workspaceId !== undefined)
        narrower.push(sql`p.workspace_id = ${within.workspaceId}`);
      const narrowed = within.fileId !== undefined || (dialect === 'postgres' && within.workspaceId !== undefined);
      const { rows } = await sql<Parameters<typeof storedVector>[0]>`
        select v.passage_id, v.vector, v.cell, v.seq from passage_vectors v
        ${narrowed ? sql`join passages p on p.passage_id = v.passage_id` : sql``}
        where ${sql.join(narrower, sql` and `)}`.execute(db);
      return rows.map(storedVector);
    },

    /** Vectors of `label` after passage `after`, in id order, `limit` at a time (a training, a full load). */
    async vectorsAfter(label: string, after: number, limit: number): Promise<StoredVector[]> {
      const { rows } = await sql<Parameters<typeof storedVector>[0]>`
        select passage_id, vector, cell, seq from passage_vectors
        where label = ${label} and passage_id > ${after}
        order by passage_id limit ${limit}`.execute(db);
      return rows.map(storedVector);
    },

    /**
     * Vectors of `label` changed after change `after.seq` (or in it, after passage `after.passageId`), in the order
     * of their changes, `limit` at a time (one statement may number many changes alike).
     */
    async changedSince(
      label: string,
      after: { seq: number; passageId: number },
      limit: number,
    ): Promise<StoredVector[]> {
      const { rows } = await sql<Parameters<typeof storedVector>[0]>`
        select passage_id, vector, cell, seq from passage_vectors
        where (seq, passage_id) > (${after.seq}, ${after.passageId}) and label = ${label}
        order by seq, passage_id limit ${limit}`.execute(db);
      return rows.map(storedVector);
    },

    /** The number of the last change to any passage's vector or cell (0 when none). */
    async lastSeq(): Promise<number> {
      const { rows } = await sql<{ seq: number | string | null }>`
        select max(seq) as seq from passage_vectors`.execute(db);
      return Number(rows[0]?.seq ?? 0);
    },

    /** Puts passages in their cells (keys: generation × CELL_SPAN + cell), if their vector is still of `label`. */
    async assign(label: string, cells: { passageId: number; key: number }[]): Promise<void> {
      if (cells.length === 0) return;
      if (dialect === 'postgres') {
        await sql`update passage_vectors p set cell = v.key, seq = ${nextVectorSeq(dialect)}
          from unnest(${cells.map((c) => c.passageId)}::bigint[], ${cells.map((c) => c.key)}::int[]) as v(id, key)
          where p.passage_id = v.id and p.label = ${label}`.execute(db);
        return;
      }
      await db.transaction().execute(async (trx) => {
        for (const { passageId, key } of cells)
          await sql`update passage_vectors set cell = ${key}, seq = ${nextVectorSeq(dialect)}
            where passage_id = ${passageId} and label = ${label}`.execute(trx);
      });
    },

    /**
     * Drops the centres of `label`'s trainings before `generation` (their passages were all put in the new cells;
     * any put in an old cell since are read by every question, `vector-index.ts`).
     */
    async retireBefore(label: string, generation: number): Promise<void> {
      await sql`delete from vector_cells where label = ${label} and generation < ${generation}`.execute(db);
    },

    /** Drops a training that did not finish: its centres, and its passages go back to no cell. */
    async abandon(label: string, generation: number): Promise<void> {
      const { from, to } = range(generation);
      await db.transaction().execute(async (trx) => {
        await sql`update passage_vectors set cell = null, seq = ${nextVectorSeq(dialect)}
          where label = ${label} and cell >= ${from} and cell < ${to}`.execute(trx);
        await sql`delete from vector_cells where label = ${label} and generation = ${generation}`.execute(trx);
      });
    },
  };
}

export type VectorIndexRepository = ReturnType<typeof createVectorIndexRepository>;
