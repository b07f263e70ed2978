import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

describe.each(dialects())('migration 0047-vector-cells (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('moves the passages’ vectors beside them, in no cell yet, and they go with their passage', async () => {
    const handle = await open();
    const db = handle.db;
    await migrateThrough(handle, '0046-passages-workspace');
    const now = '2026-01-01T00:00:00.000Z';
    await sql`insert into files
      (id, owner_key, file_name, name_key, size, content_type, sha256, blob_key, upload_date)
      values ('f1', 'olga', 'f1.txt', 'f1.txt', 1, 'text/plain', 'sha-f1', 'files/f1', ${now})`.execute(db);
    const vector = Buffer.from(Float32Array.from([0.5, -1]).buffer);
    for (const [ordinal, withVector] of [
      [0, true],
      [1, false],
    ] as const)
      await sql`insert into passages (file_id, ordinal, text, vector, vector_label
        ${dialect === 'postgres' ? sql`, text_tsv` : sql``})
        values ('f1', ${ordinal}, 'The heron nests.', ${withVector ? vector : null}, ${withVector ? 'model-a' : null}
        ${dialect === 'postgres' ? sql`, to_tsvector('simple', 'heron nests')` : sql``})`.execute(db);

    await migrateThrough(handle, '0047-vector-cells');
    const { rows } = await sql<{ ordinal: number; label: string; vector: Uint8Array; cell: null; seq: null }>`
      select p.ordinal, v.label, v.vector, v.cell, v.seq from passage_vectors v
      join passages p on p.passage_id = v.passage_id`.execute(db);
    expect(rows.map((row) => ({ ...row, vector: [...new Float32Array(new Uint8Array(row.vector).buffer)] }))).toEqual([
      { ordinal: 0, label: 'model-a', vector: [0.5, -1], cell: null, seq: null },
    ]);
    await expect(sql`select vector from passages`.execute(db)).rejects.toThrow();
    await sql`delete from passages where ordinal = 0`.execute(db);
    expect((await sql`select * from passage_vectors`.execute(db)).rows).toEqual([]);
  });
});
