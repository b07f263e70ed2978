// The Node.js lines Atrium runs on: one rule for the project's scripts (scripts/runtime.mjs) and for the server's
// and the ops CLI's own check at start (apps/server/src/node-check.ts). Plain JavaScript, no imports: it runs
// under whatever node the machine has, before node_modules exists.
//
// Supported: Node 22 (>= 22.22, which react-router 8 needs) and Node 24 — the LTS lines (package.json `engines`).
// Node 20 reached its end of life on 2026-04-30, and better-sqlite3 13 crashes on it (SIGSEGV, nothing printed).

/** The supported lines, as people read them. */
export const SUPPORTED_NODE_LINES = '22 (22.22 or later) or 24';

/** Whether a Node version (default: this process's) is a line Atrium supports. @param {string} [version] */
export function isSupportedNode(version = process.versions.node) {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 22 && minor >= 22) || major === 24;
}

/**
 * What an entry point prints before it exits on an unsupported Node: the version found, the supported lines and how
 * to get one (docs/DEPLOY.md, "Production install").
 * @param {string} [version]
 * @param {string} [execPath]
 */
export const unsupportedNodeMessage = (version = process.versions.node, execPath = process.execPath) =>
  [
    `✖ Atrium cannot run on Node ${version} (${execPath}): it needs Node ${SUPPORTED_NODE_LINES}.`,
    '  On Debian or Ubuntu, install Node 22 from NodeSource or the official tarball (docs/DEPLOY.md, "Production install"),',
    '  or run `npm start`, which installs Node 22 from the npm registry into .runtime/ for development.',
  ].join('\n');
