// The Node.js lines Atrium runs on, and how the project's scripts get one.
// Only Node built-ins here: this runs before node_modules exists, under whatever node the machine has.
//
// Supported: Node 22 (>= 22.22, which react-router 8 needs) and Node 24 — the LTS lines (package.json `engines`). Node 20 reached its end of
// life on 2026-04-30 and better-sqlite3 13 (the first release that does not abort Node 24 at exit) crashes on it.
// This machine kind still ships Node 20, so when the running node is not a supported one, `npm start`, `npm test`,
// `npm run dev` and `scripts/run.mjs` install the official binary from the npm registry (package
// `node-<platform>-<arch>`, pinned below) into `.runtime/` and run themselves again with it, its folder first on
// PATH so every child (`npx`, `npm`, tsx, the server) runs on it too.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Node version installed when the machine's node is not supported: 22, whose streams serve downloads twice as fast as 24.21's here (docs/BENCHMARKS.md). */
export const RUNTIME_NODE_VERSION = '22.23.3';

/** Whether a Node version (default: this process's) is a line Atrium supports. @param {string} [version] */
export function isSupportedNode(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (major === 22 && minor >= 22) || major === 24;
}

/**
 * The path of a supported node binary: this process's if it is one, else the pinned version from the npm
 * registry, installed into `.runtime/node-<version>` on first use. Exits with a clear message if it cannot.
 * @param {string} [version]
 */
export function supportedNodePath(version = RUNTIME_NODE_VERSION) {
  if (isSupportedNode() && version === RUNTIME_NODE_VERSION) return process.execPath;
  const prefix = path.join(root, '.runtime', `node-${version}`);
  const pkg = `node-${process.platform}-${process.arch}`;
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (existsSync(binary)) return binary;
  // Progress goes to stderr: callers may read the path from stdout.
  console.error(`Node ${process.versions.node} is not supported (22.22+ or 24); installing Node ${version} from npm…`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${version}`],
    { stdio: ['ignore', 2, 2] },
  );
  if (result.status !== 0 || !existsSync(binary)) {
    console.error(
      `\n✖ Could not install Node ${version} (npm package ${pkg}). Install Node 22 or 24 yourself and run this again.`,
    );
    process.exit(1);
  }
  return binary;
}

/** PATH with a node binary's folder first, so `node`, `npm` and `npx` in children run on it. @param {string} node */
export const pathWith = (node) => [path.dirname(node), process.env.PATH ?? ''].join(path.delimiter);

/**
 * Runs this script again under a supported Node when the current one is not, forwarding signals and the exit
 * code; resolves at once when the current node is supported, never otherwise (`await` it before anything else).
 */
export async function ensureSupportedNode() {
  if (isSupportedNode()) return;
  if (process.env.ATRIUM_RUNTIME_NODE) {
    console.error(`\n✖ ${process.execPath} (Node ${process.versions.node}) is not a supported Node.`);
    process.exit(1);
  }
  const node = supportedNodePath();
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: pathWith(node), ATRIUM_RUNTIME_NODE: node },
  });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  // Nothing else of the calling script may run: park it until the child exits.
  return new Promise(() => {});
}
