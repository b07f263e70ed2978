// `npm run backup -- DIR` and `npm run restore -- DIR` (bundled as dist/ops.js: `node apps/server/dist/ops.js backup DIR`),
// `npm run reindex` (every stored file analysed again by the running servers), and `npm run admin -- reset-2fa USER`
// (a locked-out person's second factors removed, ops/reset-2fa.ts).
// They read the same configuration as the server: environment variables, then `.env`.
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { loadDotEnv } from '../env-file';
import { migrateToLatest, openDatabase } from '../db';
import { systemClock } from '../lib/time';
import { reindexAll } from '../modules/analysis/analysis.service';
import { backup, OpsError, restore } from './backup';
import { resetTwoFactor } from './reset-2fa';

const USAGE = 'usage: atrium-ops backup|restore DIR | reindex | admin reset-2fa USERNAME';

async function main(): Promise<void> {
  const [command, argument, ...rest] = process.argv.slice(2);
  if (command === 'reindex') {
    if (argument) throw new OpsError(USAGE);
    loadDotEnv();
    const config = loadConfig({ ...process.env, SESSION_SECRET: process.env.SESSION_SECRET ?? 'x'.repeat(32) });
    const database = openDatabase(config.database);
    try {
      await migrateToLatest(database.db);
      const { queued, unsupported } = await reindexAll({
        db: database.db,
        dialect: database.dialect,
        clock: systemClock,
      });
      process.stdout.write(
        `Queued ${queued} files for analysis (${unsupported} of types that are not analysed); the running server analyses them.\n`,
      );
    } finally {
      await database.close();
    }
    return;
  }
  if (command === 'admin') {
    const [username, ...extra] = rest;
    if (argument !== 'reset-2fa' || !username || extra.length > 0) throw new OpsError(USAGE);
    loadDotEnv();
    const config = loadConfig({ ...process.env, SESSION_SECRET: process.env.SESSION_SECRET ?? 'x'.repeat(32) });
    const database = openDatabase(config.database);
    try {
      await migrateToLatest(database.db);
      process.stdout.write(`${await resetTwoFactor(database.db, systemClock, username)}\n`);
    } finally {
      await database.close();
    }
    return;
  }
  if ((command !== 'backup' && command !== 'restore') || !argument || rest.length > 0) throw new OpsError(USAGE);
  // `npm run` works in the repository root; DIR is relative to where the operator typed the command.
  const dir = path.resolve(process.env.INIT_CWD ?? '.', argument);
  loadDotEnv();
  // These tools never sign anything: a placeholder keeps loadConfig from creating
  // DATA_DIR/secrets/session-secret (a restore target must stay empty).
  const config = loadConfig({ ...process.env, SESSION_SECRET: process.env.SESSION_SECRET ?? 'x'.repeat(32) });
  if (command === 'backup') {
    const manifest = await backup(config, dir);
    const blobs =
      manifest.blobs.kind === 'fs'
        ? `${manifest.blobs.count} blobs (${manifest.blobs.bytes} bytes)`
        : `the list of objects bucket ${manifest.blobs.bucket} must keep`;
    process.stdout.write(`Backed up the ${manifest.database.kind} database, ${blobs} and the secrets into ${dir}\n`);
  } else {
    const manifest = await restore(config, dir);
    process.stdout.write(`Restored the backup of ${manifest.createdAt} into ${config.dataDir}\n`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof OpsError || error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
