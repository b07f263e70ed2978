import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_INFO_FILE, gitCommit, readBuildInfo } from './build-info';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-build-info-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A server layout: <root>/package.json and <root>/dist (the bundle's folder). */
const layout = (root: string) => {
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: '@atrium/server', version: '9.8.7' }));
  const dist = path.join(root, 'dist');
  mkdirSync(dist);
  return dist;
};

describe('build info', () => {
  it('has no commit outside a git repository and does not throw', () => {
    const dist = layout(tempDir());
    expect(readBuildInfo(dist)).toEqual({ version: '9.8.7', commit: null });
    expect(gitCommit(dist)).toBeNull();
  });

  it('reads the commit of the checkout it runs from', () => {
    const root = tempDir();
    const dist = layout(root);
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '--allow-empty', '-m', 'first');
    const head = git('rev-parse', 'HEAD');
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(readBuildInfo(dist)).toEqual({ version: '9.8.7', commit: head });
  });

  it('prefers the commit the build recorded, and ignores a malformed one', () => {
    const dist = layout(tempDir());
    writeFileSync(path.join(dist, BUILD_INFO_FILE), JSON.stringify({ commit: 'abcdef1234567' }));
    expect(readBuildInfo(dist).commit).toBe('abcdef1234567');
    writeFileSync(path.join(dist, BUILD_INFO_FILE), JSON.stringify({ commit: '$(rm -rf /)' }));
    expect(readBuildInfo(dist).commit).toBeNull();
    writeFileSync(path.join(dist, BUILD_INFO_FILE), 'not json');
    expect(readBuildInfo(dist).commit).toBeNull();
  });
});
