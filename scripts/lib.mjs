// Shared by start, dev and test: make sure dependencies are installed and the build is current.
// Only Node built-ins here: this runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/** @param {string} file */
const hashFile = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Reads `.env` from the working folder into process.env, like the server does
 * (apps/server/src/env-file.ts): variables set in the real environment win.
 */
export function loadDotEnv(file = path.resolve('.env')) {
  if (!existsSync(file)) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (value !== undefined && process.env[name] === undefined) process.env[name] = value;
  }
}

/** Runs `npm ci` when node_modules is missing or was installed from another lockfile. */
export function ensureDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.atrium-lock-sha256');
  const want = hashFile(lock);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  // Installed by `npm ci`/`npm install` after the lockfile last changed (e.g. by .ci/run): trust it.
  const hidden = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(hidden) && statSync(hidden).mtimeMs >= statSync(lock).mtimeMs) {
    writeFileSync(stamp, want);
    return;
  }
  console.log('Installing dependencies (npm ci)…');
  // `--include=dev`: with NODE_ENV=production npm would skip devDependencies, and the
  // build (vite, esbuild) needs them. The lean path (runtime dependencies only) is in docs/DEPLOY.md.
  run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund']);
  writeFileSync(stamp, want);
}

const SOURCES = [
  'package-lock.json',
  'packages/contracts/src',
  'packages/assistant/src',
  'apps/server/src',
  'apps/server/build.mjs',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
];

/** A fingerprint of every build input (paths, sizes, modification times). */
function sourceFingerprint() {
  const hash = createHash('sha256');
  /** @param {string} entry */
  const visit = (entry) => {
    const full = path.join(root, entry);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const child of readdirSync(full).sort()) {
        if (!/\.test\.tsx?$/.test(child)) visit(path.join(entry, child));
      }
    } else {
      hash.update(`${entry}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  SOURCES.forEach(visit);
  return hash.digest('hex');
}

/** Builds the web app and the server unless the last build used exactly these sources. */
export function ensureBuild({ force = false } = {}) {
  const stamp = path.join(root, 'apps/server/dist/.build-fingerprint');
  const want = sourceFingerprint();
  const built =
    existsSync(path.join(root, 'apps/web/dist/index.html')) &&
    existsSync(path.join(root, 'apps/server/dist/main.js')) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === want;
  if (built && !force) return;
  console.log('Building the web app and the server…');
  run('npm', ['run', 'build']);
  writeFileSync(stamp, want);
}
