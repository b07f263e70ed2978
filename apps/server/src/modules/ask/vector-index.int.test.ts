import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';
import { uploadWithPassages } from '../../../test/ask-passages';
import type { PassageEmbedder } from './ports';
import { toBytes, toVector } from './vector-bytes';
import { CELL_SPAN, cellsFor, dot, unit } from './vector-cells';
import { createVectorIndex } from './vector-index';
import { createVectorIndexRepository, nextVectorSeq } from './vector-index.repository';

const DIMENSIONS = 8;
/** Deterministic pseudo-random numbers in [-1, 1). */
const randoms = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  };
};
const QUESTION = Float32Array.from({ length: DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0.05));
/** `zorbex` and `flimnar` mean the same here (QUESTION); any other text a direction of its own. */
const embedder: PassageEmbedder = {
  label: 'test-cells',
  dimensions: DIMENSIONS,
  embed: async (texts) =>
    texts.map((text) => {
      if (/zorbex|flimnar/i.test(text)) return QUESTION;
      const next = randoms([...text].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
      return Float32Array.from({ length: DIMENSIONS }, next);
    }),
};

/**
 * Ask's vector index (docs/PRODUCT.md#ask-your-files) on the real server and database: trained when a label has
 * enough vectors, a question reads only its nearest cells (and those of no or a retired training), trained again
 * when the vectors double, an unfinished training dropped.
 */
describe.each(dialects())('the vector index of Ask (%s)', (dialect) => {
  let server: TestServer;
  let active: PassageEmbedder | null = null;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { ANALYSIS_ENABLED: 'true' },
      overrides: { askModels: { generator: () => null, embedder: () => active } },
    });
    Object.assign(cookies, await signInPeople(server, ['ana']));
  });
  afterAll(async () => server?.close());
  const { call, json } = callsAs(() => server, cookies);
  const db = () => server.app.database.db;
  const cited = async (question: string) =>
    (
      await json<{ citations: { fileName: string }[] }>(await call('ana', 'POST', '/api/ask', { question }))
    ).citations.map((c) => c.fileName);

  /** Adds `count` passages to `fileId` from `from` on, each with a random vector of `label`. */
  async function addVectors(fileId: string, label: string, from: number, count: number, seed: number) {
    const next = randoms(seed);
    const text = 'Survey of the quarry.';
    const words = dialect === 'postgres' ? sql`, atrium_search_words(${text}::text)` : sql``;
    for (let at = 0; at < count; at += 500) {
      const first = from + at;
      const last = first + Math.min(500, count - at) - 1;
      await sql`with recursive n(i) as (select cast(${first} as integer) union all select i + 1 from n where i < ${last})
        insert into passages (file_id, ordinal, text${dialect === 'postgres' ? sql`, text_tsv` : sql``})
        select ${fileId}, i, ${text}${words} from n`.execute(db());
      const { rows } = await sql<{ passage_id: number | string }>`select passage_id from passages
        where file_id = ${fileId} and ordinal >= ${first} and ordinal <= ${last} order by ordinal`.execute(db());
      const values = rows.map(
        (row) =>
          sql`(${Number(row.passage_id)}, ${label}, ${toBytes(Float32Array.from({ length: DIMENSIONS }, next))})`,
      );
      await sql`insert into passage_vectors (passage_id, label, vector) values ${sql.join(values)}`.execute(db());
    }
  }
  const cellsOf = async (label: string) =>
    (
      await sql<{ generation: number; n: number | string }>`select generation, count(*) as n from vector_cells
        where label = ${label} group by generation order by generation`.execute(db())
    ).rows.map((row) => [Number(row.generation), Number(row.n)]);
  const unassigned = async (label: string) =>
    Number(
      (
        await sql<{ n: number | string }>`select count(*) as n from passage_vectors
          where label = ${label} and cell is null`.execute(db())
      ).rows[0]?.n,
    );
  /** Puts passages of `fileId` (ordinals from, to) in cell `key`, as the index does: with a new change number. */
  const moveTo = (key: number | null, fileId: string, [from, to]: [number, number]) =>
    sql`update passage_vectors set cell = ${key}, seq = ${nextVectorSeq(dialect)}
      where passage_id in (select passage_id from passages where file_id = ${fileId}
        and ordinal >= ${from} and ordinal <= ${to})`.execute(db());

  it('is trained from 20,000 vectors, again when they double, dropped below 10,000; an unfinished one is dropped', async () => {
    const label = 'test-lifecycle';
    const index = createVectorIndex(createVectorIndexRepository(db(), dialect), { info: () => undefined });
    const file = await uploadWithPassages(server, cookies.ana, '', 'lifecycle.md', 'Lifecycle notes.');
    await addVectors(file.id, label, 1, 19_999, 1);
    await index.maintain(label);
    expect(await cellsOf(label)).toEqual([]);
    await addVectors(file.id, label, 20_000, 1, 2);
    await index.maintain(label);
    expect(await cellsOf(label)).toEqual([[1, cellsFor(20_000)]]);
    expect(await unassigned(label)).toBe(0);

    // An instance stopped while it put the passages in the cells of a second training: that one is dropped.
    const repo = createVectorIndexRepository(db(), dialect);
    await repo.addCentres(label, 2, [QUESTION]);
    await moveTo(2 * CELL_SPAN, file.id, [1, 99]);
    await index.maintain(label);
    expect(await cellsOf(label)).toEqual([[1, cellsFor(20_000)]]);
    expect(await unassigned(label)).toBe(99);

    // Twice as many vectors as when trained (141² × 2): trained again, the first training retired.
    await addVectors(file.id, label, 20_001, 2 * 141 ** 2 - 20_000, 3);
    await index.maintain(label);
    expect(await cellsOf(label)).toEqual([[2, cellsFor(2 * 141 ** 2)]]);
    expect(await unassigned(label)).toBe(0);

    await sql`delete from passages where file_id = ${file.id} and ordinal > ${9_000}`.execute(db());
    await index.maintain(label);
    expect(await cellsOf(label)).toEqual([]);
    expect(await unassigned(label)).toBe(9_000);
    await json(await call('ana', 'DELETE', `/api/files/user/${file.id}`));
    await json(await call('ana', 'DELETE', `/api/trash/${file.id}`));
  });

  it('ranks the nearest cells’ vectors from the database, then from the copy in memory, which follows changes', async () => {
    const label = 'test-paths';
    const repo = createVectorIndexRepository(db(), dialect);
    const index = createVectorIndex(repo, { info: () => undefined });
    const file = await uploadWithPassages(server, cookies.ana, '', 'paths.md', 'Path notes.');
    await addVectors(file.id, label, 1, 20_000, 5);
    await index.maintain(label);
    const query = Float32Array.from({ length: DIMENSIONS }, (_, i) => (i % 2 === 0 ? 1 : -0.5));
    const idOf = async (ordinal: number) =>
      Number(
        (
          await sql<{ passage_id: number | string }>`select passage_id from passages
            where file_id = ${file.id} and ordinal = ${ordinal}`.execute(db())
        ).rows[0]?.passage_id,
      );
    // Passage 1 becomes the question's own vector, in its cell, as `setVectors` writes it.
    const [key] = await index.keysFor(label, [query]);
    const plant = (ordinal: number) =>
      sql`update passage_vectors set vector = ${toBytes(query)}, cell = ${key ?? null},
        seq = ${nextVectorSeq(dialect)} where passage_id in (select passage_id from passages
          where file_id = ${file.id} and ordinal = ${ordinal})`.execute(db());
    await plant(1);
    const planted = await idOf(1);

    const fromDatabase = await index.candidates(label, query, {}, 1);
    expect(fromDatabase.complete).toBe(false);
    expect(fromDatabase.ids.length).toBeLessThan(20_000 / 8);
    expect(fromDatabase.cosines[fromDatabase.ids.indexOf(planted)]).toBeCloseTo(1, 5);
    await index.warm(label);
    const fromMemory = await index.candidates(label, query, {}, 1);
    // `MEMORY_WIDENING` times as many cells, compared in memory (one byte per dimension: cosines within 0.02).
    expect(fromMemory.ids.length).toBeGreaterThan(3 * fromDatabase.ids.length);
    expect(new Set(fromMemory.ids)).toEqual(new Set([...fromMemory.ids, ...fromDatabase.ids]));
    for (const [i, id] of fromDatabase.ids.entries())
      expect(
        Math.abs((fromMemory.cosines[fromMemory.ids.indexOf(id)] ?? 9) - (fromDatabase.cosines[i] ?? 0)),
      ).toBeLessThan(0.02);
    // Every cell: every vector.
    const all = await index.candidates(label, query, {}, 1_000);
    expect(all).toMatchObject({ complete: true });
    expect(all.ids).toHaveLength(20_000);

    // A change written since (another vector for passage 2, in the planted one's cell) is read by the next question.
    await plant(2);
    const changed = await index.candidates(label, query, {}, 1);
    expect(changed.cosines[changed.ids.indexOf(await idOf(2))]).toBeCloseTo(1, 2);
    // Moved between cells: held once.
    expect(new Set(changed.ids).size).toBe(changed.ids.length);

    // One statement may number many changes alike (SQLite: a retired training's passages): all are read, in pages.
    const highest = await repo.lastSeq();
    await sql`update passage_vectors set seq = ${highest} where label = ${label}`.execute(db());
    let after = { seq: highest - 1, passageId: -1 };
    let read = 0;
    for (;;) {
      const page = await repo.changedSince(label, after, 5_000);
      const last = page.at(-1);
      if (!last) break;
      read += page.length;
      after = { seq: last.seq, passageId: last.passageId };
    }
    expect(read).toBe(20_000);
    await json(await call('ana', 'DELETE', `/api/files/user/${file.id}`));
    await json(await call('ana', 'DELETE', `/api/trash/${file.id}`));
  });

  it('answers from the cells nearest to the question, and from passages of no or an older training', async () => {
    const quarry = await uploadWithPassages(server, cookies.ana, '', 'quarry.md', 'Survey notes.');
    await addVectors(quarry.id, embedder.label, 1, 24_000, 4);
    active = embedder;
    try {
      await server.app.ask.backfill();
      expect(await cellsOf(embedder.label)).toEqual([[1, cellsFor(24_001)]]);
      expect(await unassigned(embedder.label)).toBe(0);

      // A file stored once the index is trained: its passage goes to its cell at once.
      const flimnar = await uploadWithPassages(server, cookies.ana, '', 'flimnar.md', 'The flimnar sits by the ferry.');
      const cellOf = async () =>
        (
          await sql<{ cell: number | null }>`select v.cell from passage_vectors v
            join passages p on p.passage_id = v.passage_id where p.file_id = ${flimnar.id}`.execute(db())
        ).rows[0]?.cell;
      expect(await cellOf()).toBeGreaterThanOrEqual(CELL_SPAN);
      expect(await cited('zorbex')).toContain('flimnar.md');

      // Moved to the cell farthest from the question, it is not read: the nearest cells hold enough of Ana's.
      const centres = (
        await sql<{ cell: number; centroid: Uint8Array }>`select cell, centroid from vector_cells
          where label = ${embedder.label}`.execute(db())
      ).rows.map((row) => ({ cell: Number(row.cell), d: dot(unit(toVector(row.centroid)), unit(QUESTION)) }));
      const farthest = centres.sort((a, b) => a.d - b.d)[0]?.cell ?? 0;
      const move = (key: number | null) => moveTo(key, flimnar.id, [0, 0]);
      await move(CELL_SPAN + farthest);
      expect(await cited('zorbex')).not.toContain('flimnar.md');
      await server.app.ask.warmVectors();
      expect(await cited('zorbex')).not.toContain('flimnar.md');
      // In no cell, or in a cell of a training since retired: read by every question.
      await move(null);
      expect(await cited('zorbex')).toContain('flimnar.md');
      await move(7);
      expect(await cited('zorbex')).toContain('flimnar.md');
      await move(CELL_SPAN + farthest);
      expect(await cited('zorbex')).not.toContain('flimnar.md');
    } finally {
      active = null;
    }
  });
});
