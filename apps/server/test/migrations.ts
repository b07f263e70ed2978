import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, type Migration } from 'kysely/migration';
import { afterEach } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db';
import { migrations } from '../src/db/migrations';
import { createPostgresDatabase } from './helpers';

/** Runs the migrations in name order up to and including `last`, so a test can write rows as they were then. */
export async function migrateThrough(handle: DatabaseHandle, last: string): Promise<void> {
  const chosen: Record<string, Migration> = Object.fromEntries(
    Object.entries(migrations).filter(([name]) => name <= last),
  );
  const { error } = await new Migrator({
    db: handle.db,
    provider: { getMigrations: () => Promise.resolve(chosen) },
  }).migrateToLatest();
  if (error) throw error;
}

/**
 * For a migration test inside `describe.each(dialects())`: `open()` gives an empty database of the dialect (a fresh
 * PostgreSQL database or a SQLite file in a temporary folder), closed and removed after each test.
 */
export function emptyDatabases(dialect: 'sqlite' | 'postgres'): { open: () => Promise<DatabaseHandle> } {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    async open() {
      if (dialect === 'postgres') {
        const database = await createPostgresDatabase();
        cleanups.push(database.drop);
        const handle = openDatabase({ kind: 'postgres', url: database.url });
        cleanups.push(() => handle.close());
        return handle;
      }
      const dir = mkdtempSync(path.join(tmpdir(), 'atrium-migration-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const handle = openDatabase({ kind: 'sqlite', file: path.join(dir, 'atrium.db') });
      cleanups.push(() => handle.close());
      return handle;
    },
  };
}
