import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The file the server build writes beside the bundle (`build.mjs`): `{ "commit": "<sha>" | null }`. */
export const BUILD_INFO_FILE = 'build-info.json';

const COMMIT = /^[0-9a-f]{7,64}$/;

export interface BuildInfo {
  version: string;
  commit: string | null;
}

/** The git commit checked out at `dir` (any folder of a work tree), or null without git or a repository. */
export function gitCommit(dir: string): string | null {
  // Look for `.git` (a folder, or a file in a linked worktree) upwards first: without one, git is not asked.
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) break;
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: current,
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    }).trim();
    return COMMIT.test(out) ? out : null;
  } catch {
    return null; // git missing, not a repository, no commit yet
  }
}

/**
 * The server's version (its package.json, from source or from the bundle in dist/) and git commit: the one the
 * build recorded in dist/build-info.json, else `git rev-parse HEAD` when the server runs from a checkout, else
 * null. Never throws.
 */
export function readBuildInfo(here: string): BuildInfo {
  let version = 'unknown';
  for (const candidate of [path.resolve(here, '../package.json'), path.resolve(here, '../../../package.json')]) {
    try {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@atrium/server' && pkg.version) {
        version = pkg.version;
        break;
      }
    } catch {
      // not this layout
    }
  }
  let commit: string | null = null;
  try {
    const recorded = JSON.parse(readFileSync(path.join(here, BUILD_INFO_FILE), 'utf8')) as { commit?: unknown };
    if (typeof recorded.commit === 'string' && COMMIT.test(recorded.commit)) commit = recorded.commit;
  } catch {
    // not a build, or a build without the file
  }
  return { version, commit: commit ?? gitCommit(here) };
}

/** What `--version` prints: `Atrium <version> (<commit>)`. */
export function versionLine(here: string): string {
  const { version, commit } = readBuildInfo(here);
  return `Atrium ${version}${commit ? ` (${commit.slice(0, 12)})` : ''}`;
}
