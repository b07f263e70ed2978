import { chmod, copyFile, lchown, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createBlobStore, createFsBlobStore, type BlobStore } from '../adapters/blob-store';
import type { Config } from '../config';
import { backupDatabase, dropRows, postgresTables, type DatabaseCopy } from './backup-database';
import { chownTree, entriesOf, exists, isMissing, OpsError, ownerOf, runTool } from './ops-io';

export { OpsError } from './ops-io';

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
const OBJECTS_FILE = 's3-objects.json';
const OBJECTS_FOLDER = 'objects';

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  database: DatabaseCopy;
  blobs:
    | { kind: 'fs'; count: number; bytes: number }
    | {
        kind: 's3';
        bucket: string;
        prefix: string;
        file: string;
        /** With `--with-objects`: the objects' bytes too, in this folder (a blob tree like `blobs/`). */
        objects?: { folder: string; count: number; bytes: number };
      };
  secrets: string[];
}

interface S3Object {
  key: string;
  size: number;
  etag: string | undefined;
}

export type OpsConfig = Pick<Config, 'dataDir' | 'database' | 'blobStore'>;

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
  /** S3 store: copy the bytes of the objects the database references too (`backup DIR --with-objects`). */
  withObjects?: boolean;
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
        if (options.withObjects) {
          const copy = createFsBlobStore(path.join(target, OBJECTS_FOLDER));
          for (const object of listed) await copy.put(object.key, await source.get(object.key));
          const bytes = listed.reduce((sum, object) => sum + object.size, 0);
          blobs.objects = { folder: OBJECTS_FOLDER, count: listed.length, bytes };
        }
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

/** Whether `dir` holds a complete backup (its manifest, written last, is there). */
export const isBackupFolder = (dir: string) => exists(path.join(dir, MANIFEST));

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
  /** Objects the bucket lacks that the backup holds the bytes of: put back into the bucket by the restore. */
  const putBack: string[] = [];
  const savedObjects =
    manifest.blobs.kind === 's3' && manifest.blobs.objects
      ? createFsBlobStore(path.join(from, manifest.blobs.objects.folder))
      : undefined;
  if (manifest.blobs.kind === 's3') {
    objects = JSON.parse(await readFile(path.join(from, manifest.blobs.file), 'utf8')) as S3Object[];
    const store = createBlobStore(config);
    try {
      const missing: string[] = [];
      for (const object of objects) {
        const found = await store.stat(object.key);
        if (found?.size === object.size) continue;
        if ((await savedObjects?.stat(object.key))?.size === object.size) putBack.push(object.key);
        else missing.push(object.key);
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

  // Run as root (as an operator often does), the restored files must still belong to the service: they get the
  // owner of DATA_DIR as it is (systemd's StateDirectory= makes it the service user's), or of its parent folder.
  const owner = await ownerOf(config.dataDir);
  await mkdir(config.dataDir, { recursive: true });
  if (manifest.blobs.kind === 'fs')
    await copyBlobs(createFsBlobStore(path.join(from, 'blobs')), createBlobStore(config));
  if (savedObjects && putBack.length > 0) {
    const store = createBlobStore(config);
    try {
      for (const key of putBack) await store.put(key, await savedObjects.get(key));
    } finally {
      await store.close();
    }
  }
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
  if (process.getuid?.() === 0 && owner.uid !== 0) {
    await chownTree(config.dataDir, owner);
    // A SQLite file kept outside DATA_DIR: that file alone (never the folder it shares with others).
    if (config.database.kind === 'sqlite' && !isInside(config.dataDir, config.database.file))
      await lchown(config.database.file, owner.uid, owner.gid);
  }
  return manifest;
}

const isInside = (dir: string, file: string) => !path.relative(dir, file).startsWith('..');
