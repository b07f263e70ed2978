import {
  CELL_SPAN,
  INDEXED_FROM,
  MEMORY_WIDENING,
  cellsFor,
  nearestCell,
  nearestCells,
  probesFor,
  sampleFor,
  trainCells,
  unit,
} from './vector-cells';
import { cosine } from './nearest';
import { VectorCache } from './vector-cache';
import type { CellFilter, VectorIndexRepository } from './vector-index.repository';
import type { Within } from './passage-scope.repository';

interface Training {
  generation: number;
  centres: Float32Array[];
}

/** Passages put in their new cell per statement after a training; vectors read per statement into memory. */
const ASSIGN_BATCH = 1_000;
const LOAD_BATCH = 5_000;
/** The copy in memory reads again the changes of the last seconds (PostgreSQL numbers them before they commit). */
const LATE_COMMIT_MS = 10_000;
/** The copy in memory is loaded afresh this often (passages deleted since are dropped then). */
const RELOAD_MS = 60 * 60_000;

/** An instance's copy of one embedder's vectors and how far it has read their changes. */
interface Mirror {
  cache: VectorCache;
  /** The highest change read; changes read at which times (to read late commits again). */
  seq: number;
  marks: { at: number; seq: number }[];
  loadedAt: number;
  refreshing?: Promise<void> | undefined;
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/**
 * Ask's vector index (docs/PRODUCT.md#ask-your-files): from `INDEXED_FROM` vectors of one embedder, they are grouped
 * in about √n cells (k-means on a sample, `vector-cells.ts`) kept in the database, and a question reads the vectors of
 * its nearest cells only. Trained again when the vectors have doubled; while a training assigns the passages to its
 * cells, questions read the cells of both trainings. Each instance keeps the centres in memory (checked per
 * question against the database's) and a copy of the vectors (`vector-cache.ts`), loaded once and following their
 * changes; until it is loaded, a question reads its nearest cells' vectors from the database.
 */
export function createVectorIndex(repo: VectorIndexRepository, log: { info(details: object, message: string): void }) {
  const centresOf = new Map<string, { signature: string; trainings: Training[] }>();

  /** The trainings kept for `label`, oldest first (from memory while the database holds the same). */
  async function trainings(label: string): Promise<Training[]> {
    const kept = await repo.generations(label);
    const signature = kept.map((g) => `${g.generation}:${g.cells}`).join(',');
    const cached = centresOf.get(label);
    if (cached?.signature === signature) return cached.trainings;
    const centres = kept.length > 0 ? await repo.centres(label) : [];
    const list = kept.map(({ generation }) => ({
      generation,
      centres: centres.filter((c) => c.generation === generation).map((c) => c.centroid),
    }));
    centresOf.set(label, { signature, trainings: list });
    return list;
  }

  const mirrors = new Map<string, Mirror>();
  const loading = new Map<string, Promise<void>>();
  /** When loading a copy last failed, per embedder. */
  const failedAt = new Map<string, number>();

  /** Loads every vector of `label` into a new copy in memory, then makes it the one questions use. */
  async function load(label: string): Promise<void> {
    const started = performance.now();
    const seq = await repo.lastSeq();
    const loaded = new VectorCache();
    for (let after = -1; ;) {
      const batch = await repo.vectorsAfter(label, after, LOAD_BATCH);
      const last = batch.at(-1);
      if (!last) break;
      for (const row of batch) loaded.put(row.passageId, row.vector, row.cell, row.seq);
      after = last.passageId;
      await pause();
    }
    const cache = loaded.packed();
    // One embedder at a time: a copy of another's vectors is dropped.
    mirrors.clear();
    mirrors.set(label, { cache, seq, marks: [{ at: Date.now(), seq }], loadedAt: Date.now() });
    log.info(
      { label, vectors: cache.size, megabytes: Math.round(cache.bytes / 2 ** 20), seconds: seconds(started) },
      'loaded the vectors of Ask into memory',
    );
  }

  /** Reads the changes since the copy last looked: the first batch now, the rest in the background. */
  async function refresh(label: string, mirror: Mirror): Promise<void> {
    if (mirror.refreshing) return;
    let first: () => void = () => undefined;
    const firstDone = new Promise<void>((resolve) => (first = resolve));
    mirror.refreshing = (async () => {
      const now = Date.now();
      // From what was read before the last seconds, so a change numbered earlier but committed late is not missed.
      const settled = mirror.marks.filter((mark) => mark.at <= now - LATE_COMMIT_MS).at(-1) ?? mirror.marks[0];
      let from = { seq: settled?.seq ?? mirror.seq, passageId: -1 };
      for (;;) {
        const batch = await repo.changedSince(label, from, LOAD_BATCH);
        for (const row of batch) mirror.cache.put(row.passageId, row.vector, row.cell, row.seq);
        const last = batch.at(-1);
        if (last) from = { seq: last.seq, passageId: last.passageId };
        mirror.seq = Math.max(mirror.seq, from.seq);
        first();
        if (batch.length < LOAD_BATCH) break;
        await pause();
      }
      mirror.marks = [
        ...mirror.marks.filter((mark) => mark === settled || mark.at > now - LATE_COMMIT_MS),
        { at: now, seq: mirror.seq },
      ];
    })()
      // The copy stays as it was (the database is the truth): the next question reads the changes again.
      .catch((error: unknown) => log.info({ err: error, label }, 'could not read the changes of Ask’s vectors'))
      .finally(() => {
        first();
        mirror.refreshing = undefined;
      });
    await firstDone;
  }

  /** The copy in memory of `label`'s vectors, up to date; undefined while it is first loaded (in the background). */
  async function mirrorOf(label: string): Promise<Mirror | undefined> {
    const mirror = mirrors.get(label);
    const stale = !mirror || Date.now() - mirror.loadedAt > RELOAD_MS;
    const failed = failedAt.get(label);
    if (stale && !loading.has(label) && (failed === undefined || Date.now() - failed > RELOAD_MS)) {
      const promise = load(label)
        .catch((error: unknown) => {
          // Not again for a while (more vectors than a WebAssembly memory holds, 4 GiB, fail every time): questions
          // read their cells from the database meanwhile.
          failedAt.set(label, Date.now());
          log.info({ err: error, label }, 'could not load the vectors of Ask into memory');
        })
        .finally(() => loading.delete(label));
      loading.set(label, promise);
    }
    if (mirror) await refresh(label, mirror);
    return mirror;
  }

  /**
   * The cells a question `query` reads: in each training, the `probesFor` nearest × `widening`; null when there is
   * no index or that is every cell (then every vector is read).
   */
  async function probe(label: string, query: Float32Array, widening: number): Promise<CellFilter | null> {
    const list = await trainings(label);
    const oldest = list[0];
    if (!oldest) return null;
    const keys: number[] = [];
    for (const { generation, centres } of list) {
      const probes = probesFor(centres.length) * widening;
      if (probes >= centres.length) return null;
      keys.push(...nearestCells(query, centres, probes).map((cell) => generation * CELL_SPAN + cell));
    }
    return { keys, below: oldest.generation * CELL_SPAN };
  }

  return {
    /**
     * The passages whose vectors a question `query` ranks, with their cosine to it: those of the cells nearest to it
     * (more of them × `widening`), from the copy in memory when it is loaded, else from the database; `complete`
     * when that was every vector within `within` (no index, or every cell).
     */
    async candidates(
      label: string,
      query: Float32Array,
      within: Within,
      widening: number,
    ): Promise<{ ids: Float64Array; cosines: Float64Array; complete: boolean }> {
      // One file's passages: few, read from the database.
      const mirror = within.fileId === undefined ? await mirrorOf(label) : undefined;
      const cells = await probe(label, query, mirror ? widening * MEMORY_WIDENING : widening);
      if (mirror) {
        const { ids, cosines } = mirror.cache.nearest(query, cells?.keys ?? null, cells?.below ?? 0);
        return { ids, cosines, complete: cells === null };
      }
      const found = await repo.vectors(label, within, cells);
      return {
        ids: Float64Array.from(found, (row) => row.passageId),
        cosines: Float64Array.from(found, (row) => cosine(row.vector, query)),
        complete: cells === null,
      };
    },

    /** Loads the copy in memory of `label`'s vectors now, if it is not (a question otherwise starts it). */
    async warm(label: string): Promise<void> {
      await mirrorOf(label);
      await loading.get(label);
    },

    /** Each vector's cell in the newest training of `label` (null when there is none). */
    async keysFor(label: string, vectors: Float32Array[]): Promise<(number | null)[]> {
      const newest = (await trainings(label)).at(-1);
      if (!newest || newest.centres.length === 0) return vectors.map(() => null);
      return vectors.map((v) => newest.generation * CELL_SPAN + nearestCell(unit(v), newest.centres));
    },

    /**
     * Trains the index of `label` when it is due (none yet from `INDEXED_FROM` vectors, or the vectors have doubled
     * since), puts every vector in its new cell, then retires the previous training. A training an instance did not
     * finish is dropped first. The scheduled `ask.passages.backfill` calls it, on one instance.
     */
    async maintain(label: string, signal?: AbortSignal): Promise<void> {
      const kept = await repo.generations(label);
      for (const unfinished of kept.slice(1).reverse()) await repo.abandon(label, unfinished.generation);
      const current = kept[0];
      const vectors = await repo.count(label);
      if (current && vectors < INDEXED_FROM / 2) {
        // Too few vectors left for cells to pay: every question reads them all again.
        await repo.abandon(label, current.generation);
        return;
      }
      if (vectors < INDEXED_FROM || (current && vectors < 2 * current.cells ** 2)) return;
      const started = performance.now();
      const cells = cellsFor(vectors);
      const centres = await trainCells(await repo.sample(label, sampleFor(cells), vectors), cells, pause);
      const generation = (current?.generation ?? 0) + 1;
      await repo.addCentres(label, generation, centres);
      let after = 0;
      for (;;) {
        if (signal?.aborted) return;
        const batch = await repo.vectorsAfter(label, after, ASSIGN_BATCH);
        const last = batch.at(-1);
        if (!last) break;
        await repo.assign(
          label,
          batch.map(({ passageId, vector }) => ({
            passageId,
            key: generation * CELL_SPAN + nearestCell(unit(vector), centres),
          })),
        );
        after = last.passageId;
        await pause();
      }
      await repo.retireBefore(label, generation);
      log.info({ label, vectors, cells: centres.length, seconds: seconds(started) }, 'trained the vector index of Ask');
    },
  };
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;
