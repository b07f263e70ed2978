import { rename } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config';
import { exists, OpsError, runTool } from './ops-io';

// The database side of a backup: its copy (SQLite online backup or `pg_dump` in one snapshot), the blob keys that
// copy references, and on restore the rows of blobs deleted while the backup ran.

const SQLITE_FILE = 'database.sqlite';
const PG_FILE = 'database.pgdump';

/** The database part of the backup manifest. */
export interface DatabaseCopy {
  kind: 'sqlite' | 'postgres';
  file: string;
  /** Blobs of files deleted while the backup ran: restore deletes the rows that name them. */
  droppedBlobKeys?: string[];
}

const BLOB_COLUMN = /(^|_)blob_key$/;

interface BlobColumn {
  table: string;
  column: string;
}

/** Every column that holds blob keys (`blob_key`, `…_blob_key`), in any table of a SQLite database. */
function sqliteBlobColumns(db: SQLite.Database): BlobColumn[] {
  const tables = db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
  return tables.flatMap(({ name: table }) =>
    (db.prepare('select name from pragma_table_info(?)').all(table) as { name: string }[])
      .filter(({ name }) => BLOB_COLUMN.test(name))
      .map(({ name: column }) => ({ table, column })),
  );
}

/** Every column that holds blob keys, in any table of the PostgreSQL schema. */
async function postgresBlobColumns(client: pg.ClientBase): Promise<BlobColumn[]> {
  const { rows } = await client.query<{ table: string; column: string }>(
    `select table_name as table, column_name as column from information_schema.columns
      where table_schema = current_schema() and column_name ~ '(^|_)blob_key$'`,
  );
  return rows;
}

/** Every blob key a SQLite database file references. */
function sqliteBlobKeys(file: string): Set<string> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const keys = new Set<string>();
    for (const { table, column } of sqliteBlobColumns(db)) {
      const rows = db.prepare(`select "${column}" as key from "${table}" where "${column}" is not null`);
      for (const row of rows.all() as { key: string }[]) keys.add(row.key);
    }
    return keys;
  } finally {
    db.close();
  }
}

/** Every blob key the database references, read in the transaction (snapshot) of `client`. */
async function postgresBlobKeys(client: pg.ClientBase): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const { table, column } of await postgresBlobColumns(client)) {
    const { rows } = await client.query<{ key: string }>(
      `select "${column}" as key from "${table}" where "${column}" is not null`,
    );
    for (const row of rows) keys.add(row.key);
  }
  return keys;
}

/** Deletes, in the restored database, the rows naming blobs of files deleted while the backup ran. */
export async function dropRows(database: Config['database'], keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  if (database.kind === 'sqlite') {
    const db = new SQLite(database.file, { fileMustExist: true });
    try {
      db.pragma('foreign_keys = ON');
      db.transaction(() => {
        for (const { table, column } of sqliteBlobColumns(db)) {
          const remove = db.prepare(`delete from "${table}" where "${column}" = ?`);
          for (const key of keys) remove.run(key);
        }
      })();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const { table, column } of await postgresBlobColumns(client))
      await client.query(`delete from "${table}" where "${column}" = any($1)`, [keys]);
  } finally {
    await client.end();
  }
}

/** Copies the database into `dir` and returns the blob keys that copy references. */
export async function backupDatabase(
  config: Pick<Config, 'database'>,
  dir: string,
  whileSnapshotOpen: (keys: Set<string>) => Promise<void>,
): Promise<DatabaseCopy> {
  if (config.database.kind === 'sqlite') {
    if (!(await exists(config.database.file)))
      throw new OpsError(`No database at ${config.database.file}: nothing to back up`);
    const source = new SQLite(config.database.file, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      const partial = path.join(dir, `${SQLITE_FILE}.part`);
      await source.backup(partial);
      await rename(partial, path.join(dir, SQLITE_FILE));
    } finally {
      source.close();
    }
    await whileSnapshotOpen(sqliteBlobKeys(path.join(dir, SQLITE_FILE)));
    return { kind: 'sqlite', file: SQLITE_FILE };
  }
  // One repeatable-read snapshot for both pg_dump and the blob keys, so they describe the same moment.
  const client = new pg.Client({ connectionString: config.database.url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const snapshot = rows[0]?.id ?? '';
    await runTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--snapshot=${snapshot}`,
      `--file=${path.join(dir, PG_FILE)}`,
      `--dbname=${config.database.url}`,
    ]);
    await whileSnapshotOpen(await postgresBlobKeys(client));
    await client.query('commit');
  } finally {
    await client.end();
  }
  return { kind: 'postgres', file: PG_FILE };
}

/** The tables of the target PostgreSQL database's current schema. */
export async function postgresTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'select table_name as name from information_schema.tables where table_schema = current_schema()',
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}
