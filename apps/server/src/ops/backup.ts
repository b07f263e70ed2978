import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createBlobStore, createFsBlobStore, type BlobStore } from '../adapters/blob-store';
import type { Config } from '../config';

/**
 * Backup and restore of a whole instance (see docs/DEPLOY.md, "Backups and restore").
 *
 * A backup folder holds the whole database (SQLite online backup or `pg_dump`),
 * a copy of every blob (local store) or a list of the objects the bucket must
 * keep (S3 store), the DATA_DIR/secrets folder, and `atrium-backup.json`, written
 * last: a folder without it is not a complete backup.
 *
 * Consistency: blobs are immutable and stored before the row that names them.
 * The database is copied first, then the blobs; every blob key the copied
 * database references (any `…blob_key` column) is then in the copy, unless its
 * file was deleted meanwhile (rows are deleted before their bytes): the manifest
 * lists those keys and restore deletes their rows, as the user did. Extra blobs
 * are harmless: the server sweeps orphans.
 */

export const MANIFEST = 'atrium-backup.json';
const FORMAT = 'atrium-backup';
const VERSION = 1;
const SQLITE_FILE = 'database.sqlite';
const PG_FILE = 'database.pgdump';
const OBJECTS_FILE = 's3-objects.json';

/** A refusal or failure with a message meant for the operator (exit code 1, no stack trace). */
export class OpsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpsError';
  }
}

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  database: {
    kind: 'sqlite' | 'postgres';
    file: string;
    /** Blobs of files deleted while the backup ran: restore deletes the rows that name them. */
    droppedBlobKeys?: string[];
  };
  blobs: { kind: 'fs'; count: number; bytes: number } | { kind: 's3'; bucket: string; prefix: string; file: string };
  secrets: string[];
}

interface S3Object {
  key: string;
  size: number;
  etag: string | undefined;
}

export type OpsConfig = Pick<Config, 'dataDir' | 'database' | 'blobStore'>;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** The entries of a folder, or [] when it does not exist. */
async function entriesOf(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );
}

/** Runs a PostgreSQL client tool; fails with its own error output. */
function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new OpsError(
          error.code === 'ENOENT'
            ? `${command} not found: install the PostgreSQL client tools (Debian: apt-get install postgresql-client)`
            : `${command}: ${error.message}`,
        ),
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new OpsError(`${command} failed (exit ${code}):\n${stderr.trim()}`)),
    );
  });
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
async function dropRows(database: OpsConfig['database'], keys: string[]): Promise<void> {
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
async function backupDatabase(
  config: OpsConfig,
  dir: string,
  whileSnapshotOpen: (keys: Set<string>) => Promise<void>,
): Promise<Manifest['database']> {
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

/** Copies every blob not yet in `target` (blobs never change once written). */
async function copyBlobs(source: BlobStore, target: BlobStore): Promise<void> {
  for await (const blob of source.list('')) {
    const copied = await target.stat(blob.key);
    if (copied?.size === blob.size) continue;
    const body = await source.get(blob.key).catch((error: unknown) => {
      // Deleted since it was listed: the consistency check decides whether that matters.
      if ((error as Error).name === 'BlobNotFoundError') return undefined;
      throw error;
    });
    if (body) await target.put(blob.key, body);
  }
}

async function copySecrets(from: string, to: string): Promise<string[]> {
  const names = (await entriesOf(from)).sort();
  if (names.length > 0) await mkdir(to, { recursive: true, mode: 0o700 });
  for (const name of names) {
    await copyFile(path.join(from, name), path.join(to, name));
    await chmod(path.join(to, name), 0o600);
  }
  return names;
}

export interface BackupOptions {
  /** Called once the database is copied and before the blobs are (tests use it to change data in between). */
  afterDatabaseCopy?: () => Promise<void>;
}

/** Writes a consistent backup of a running (or stopped) instance into `dir`, which must be empty or absent. */
export async function backup(config: OpsConfig, dir: string, options: BackupOptions = {}): Promise<Manifest> {
  const target = path.resolve(dir);
  if ((await entriesOf(target)).length > 0)
    throw new OpsError(`${target} is not empty: back up into a new or empty folder`);
  const existed = await exists(target);
  await mkdir(target, { recursive: true, mode: 0o700 });
  try {
    return await backupInto(config, target, options);
  } catch (error) {
    // The folder was empty or absent: leave no partial backup behind (but keep a folder that existed).
    if (existed) for (const name of await entriesOf(target)) await rm(path.join(target, name), { recursive: true });
    else await rm(target, { recursive: true, force: true });
    throw error;
  }
}

async function backupInto(config: OpsConfig, target: string, options: BackupOptions): Promise<Manifest> {
  let blobs: Manifest['blobs'] | undefined;
  let dropped: string[] = [];
  const database = await backupDatabase(config, target, async (keys) => {
    await options.afterDatabaseCopy?.();
    const source = createBlobStore(config);
    try {
      const present = new Map<string, S3Object>();
      if (config.blobStore.kind === 's3') {
        for await (const blob of source.list('')) present.set(blob.key, { ...blob, etag: blob.etag });
      } else {
        const copy = createFsBlobStore(path.join(target, 'blobs'));
        await copyBlobs(source, copy);
        for await (const blob of copy.list('')) present.set(blob.key, { ...blob, etag: undefined });
      }
      // Referenced by the copied database but gone: deleted since the database copy (rows go before
      // their bytes). Restore deletes those rows too, as the user did.
      dropped = [...keys].filter((key) => !present.has(key)).sort();
      if (config.blobStore.kind === 's3') {
        const objects = [...keys].filter((key) => present.has(key)).sort();
        const listed = objects.map((key) => present.get(key) as S3Object);
        await writeFile(path.join(target, OBJECTS_FILE), `${JSON.stringify(listed, null, 2)}\n`);
        blobs = { kind: 's3', bucket: config.blobStore.bucket, prefix: config.blobStore.prefix, file: OBJECTS_FILE };
      } else {
        const sizes = [...present.values()].map((blob) => blob.size);
        blobs = { kind: 'fs', count: sizes.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
      }
    } finally {
      await source.close();
    }
  });
  if (!blobs) throw new OpsError('The blob store could not be read');

  const secrets = await copySecrets(path.join(config.dataDir, 'secrets'), path.join(target, 'secrets'));
  const manifest: Manifest = {
    format: FORMAT,
    version: VERSION,
    createdAt: new Date().toISOString(),
    database: { ...database, droppedBlobKeys: dropped },
    blobs,
    secrets,
  };
  await writeFile(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

async function readManifest(dir: string): Promise<Manifest> {
  const text = await readFile(path.join(dir, MANIFEST), 'utf8').catch((error: unknown) => {
    if (isMissing(error)) throw new OpsError(`${dir} is not a complete Atrium backup (no ${MANIFEST})`);
    throw error;
  });
  const manifest = JSON.parse(text) as Partial<Manifest>;
  if (manifest.format !== FORMAT || manifest.version !== VERSION || !manifest.database || !manifest.blobs)
    throw new OpsError(`${dir}/${MANIFEST} is not an Atrium backup manifest of version ${VERSION}`);
  return manifest as Manifest;
}

/** The tables of the target PostgreSQL database's current schema. */
async function postgresTables(url: string): Promise<string[]> {
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

/**
 * Restores a backup into an empty DATA_DIR and an empty database. Refuses, changing
 * nothing, when the data folder is not empty, the database has tables, or the
 * backup was taken with another database or blob store kind.
 */
export async function restore(config: OpsConfig, dir: string): Promise<Manifest> {
  const from = path.resolve(dir);
  const manifest = await readManifest(from);
  if (manifest.database.kind !== config.database.kind)
    throw new OpsError(
      `This backup holds a ${manifest.database.kind} database but DATABASE_URL points to ${config.database.kind}`,
    );
  if (manifest.blobs.kind !== config.blobStore.kind)
    throw new OpsError(`This backup was taken with BLOB_STORE=${manifest.blobs.kind}, not ${config.blobStore.kind}`);

  const problems: string[] = [];
  const present = await entriesOf(config.dataDir);
  if (present.length > 0) problems.push(`DATA_DIR ${config.dataDir} is not empty (${present.slice(0, 5).join(', ')})`);
  if (config.database.kind === 'sqlite' && (await exists(config.database.file)))
    problems.push(`the database file ${config.database.file} already exists`);
  if (config.database.kind === 'postgres') {
    const tables = await postgresTables(config.database.url);
    if (tables.length > 0) problems.push(`the database already has tables (${tables.slice(0, 5).join(', ')})`);
  }
  let objects: S3Object[] = [];
  if (manifest.blobs.kind === 's3') {
    objects = JSON.parse(await readFile(path.join(from, manifest.blobs.file), 'utf8')) as S3Object[];
    const store = createBlobStore(config);
    try {
      const missing: string[] = [];
      for (const object of objects) {
        const found = await store.stat(object.key);
        if (found?.size !== object.size) missing.push(object.key);
      }
      if (missing.length > 0)
        problems.push(
          `the bucket lacks ${missing.length} object(s) the backup needs (${missing.slice(0, 5).join(', ')})`,
        );
    } finally {
      await store.close();
    }
  }
  if (problems.length > 0) throw new OpsError(`Refusing to restore: ${problems.join('; ')}. Nothing was changed.`);

  await mkdir(config.dataDir, { recursive: true });
  if (manifest.blobs.kind === 'fs')
    await copyBlobs(createFsBlobStore(path.join(from, 'blobs')), createBlobStore(config));
  await copySecrets(path.join(from, 'secrets'), path.join(config.dataDir, 'secrets'));
  if (config.database.kind === 'sqlite') {
    await mkdir(path.dirname(config.database.file), { recursive: true });
    const partial = `${config.database.file}.restoring`;
    await copyFile(path.join(from, manifest.database.file), partial);
    await rename(partial, config.database.file);
  } else {
    await runTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${config.database.url}`,
      path.join(from, manifest.database.file),
    ]);
  }
  await dropRows(config.database, manifest.database.droppedBlobKeys ?? []);
  return manifest;
}
