// `npm run backup -- DIR` and `npm run restore -- DIR` (bundled as dist/ops.js: `node apps/server/dist/ops.js backup DIR`),
// `npm run reindex` (every stored file analysed again by the running servers), and `npm run admin -- reset-2fa USER`
// (a locked-out person's second factors removed, ops/reset-2fa.ts).
// They read the same configuration as the server: environment variables, then `.env`.
// Before anything else: an unsupported Node exits here with a message (../node-check.ts).
import '../node-check';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { loadDotEnv } from '../env-file';
import { versionLine } from '../lib/build-info';
import { migrateToLatest, openDatabase } from '../db';
import { systemClock } from '../lib/time';
import { reindexAll } from '../modules/analysis/analysis.service';
import { createLoginLimiter } from '../modules/auth/login-limiter';
import { backup, OpsError, restore } from './backup';
import { resetTwoFactor } from './reset-2fa';

/** The secrets a backup never holds: those the operator set in the environment (generated ones are in DATA_DIR/secrets). */
const ENVIRONMENT_SECRETS = [
  'SESSION_SECRET',
  'ADMIN_PASSWORD',
  'VAPID_PRIVATE_KEY',
  'OIDC_CLIENT_SECRET',
  'S3_SECRET_ACCESS_KEY',
  'DATABASE_URL',
  'SMTP_URL',
];
const secretsOutsideBackups = (env: NodeJS.ProcessEnv) => ENVIRONMENT_SECRETS.filter((name) => env[name]);

const USAGE =
  'usage: atrium-ops backup DIR [--with-objects] | restore DIR | reindex | clear-lockout USERNAME_OR_IP | admin reset-2fa USERNAME | --version';

/**
 * The server's configuration for a tool that never signs anything: without SESSION_SECRET, a random one stands in,
 * so loadConfig neither creates DATA_DIR/secrets/session-secret (a restore target must stay empty) nor refuses a
 * weak placeholder in production.
 */
function toolConfig() {
  loadDotEnv();
  return loadConfig({
    ...process.env,
    SESSION_SECRET: process.env.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
  });
}

async function main(): Promise<void> {
  const [command, argument, ...rest] = process.argv.slice(2);
  if (command === '--version') {
    process.stdout.write(`${versionLine(import.meta.dirname)}\n`);
    return;
  }
  if (command === 'reindex') {
    if (argument) throw new OpsError(USAGE);
    const config = toolConfig();
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
  if (command === 'clear-lockout') {
    if (!argument || rest.length > 0) throw new OpsError(USAGE);
    const config = toolConfig();
    const database = openDatabase(config.database);
    try {
      await migrateToLatest(database.db);
      const limiter = createLoginLimiter({ db: database.db, clock: systemClock, ...config.loginRateLimit });
      const cleared = await limiter.clear(argument);
      process.stdout.write(
        cleared > 0
          ? `Cleared the sign-in lock-out of ${argument}: it may sign in again now.\n`
          : `No failed sign-ins are counted for ${argument}: nothing to clear.\n`,
      );
    } finally {
      await database.close();
    }
    return;
  }
  if (command === 'admin') {
    const [username, ...extra] = rest;
    if (argument !== 'reset-2fa' || !username || extra.length > 0) throw new OpsError(USAGE);
    const config = toolConfig();
    const database = openDatabase(config.database);
    try {
      await migrateToLatest(database.db);
      process.stdout.write(`${await resetTwoFactor(database.db, systemClock, username)}\n`);
    } finally {
      await database.close();
    }
    return;
  }
  const withObjects = command === 'backup' && rest.length === 1 && rest[0] === '--with-objects';
  if ((command !== 'backup' && command !== 'restore') || !argument || (rest.length > 0 && !withObjects))
    throw new OpsError(USAGE);
  // `npm run` works in the repository root; DIR is relative to where the operator typed the command.
  const dir = path.resolve(process.env.INIT_CWD ?? '.', argument);
  const config = toolConfig();
  if (command === 'backup') {
    const manifest = await backup(config, dir, { withObjects });
    const blobs =
      manifest.blobs.kind === 'fs'
        ? `${manifest.blobs.count} blobs (${manifest.blobs.bytes} bytes)`
        : manifest.blobs.objects
          ? `${manifest.blobs.objects.count} objects of bucket ${manifest.blobs.bucket} (${manifest.blobs.objects.bytes} bytes)`
          : `the list of objects bucket ${manifest.blobs.bucket} must keep (add --with-objects for their bytes)`;
    process.stdout.write(`Backed up the ${manifest.database.kind} database, ${blobs} and the secrets into ${dir}\n`);
    const outside = secretsOutsideBackups(process.env);
    if (outside.length > 0)
      process.stdout.write(
        `Not in the backup: ${outside.join(', ')} — set in the environment, not generated into DATA_DIR. Keep them (your .env or /etc/atrium/atrium.env) in your own secret store: a restore needs them.\n`,
      );
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
