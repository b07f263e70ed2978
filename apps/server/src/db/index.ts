/**
 * The database: Kysely on SQLite (better-sqlite3, WAL, foreign keys) by default, PostgreSQL with `DATABASE_URL`.
 * Migrations in `db/migrations/` are written once with Kysely's schema builder for both dialects and run at start-up
 * (Kysely's migrator locks, so several instances may start at once). Table types live in `db/schema/*.ts`; timestamps
 * are ISO-8601 UTC text in both dialects; `int8` is parsed as a number.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config';
import { migrations } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Dialect = Config['database']['kind'];

// int8 (bigint) columns hold byte counts; read them as numbers, not strings.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(database: Config['database']): DatabaseHandle {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      ping: () => sql`select 1`.execute(db).then(() => undefined),
      close: () => db.destroy(),
    };
  }
  mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    ping: () => sql`select 1`.execute(db).then(() => undefined),
    close: () => db.destroy(),
  };
}

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Brings the schema up to date. Safe to run from several instances at once (Kysely locks). */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
