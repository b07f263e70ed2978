import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isSupportedNode,
  RUNTIME_INTEGRITY,
  RUNTIME_NODE_VERSION,
  runtimeDownloadRefusal,
  supportedNodePath,
} from './runtime.mjs';

describe('supported Node lines', () => {
  it('accepts Node 22.22+ and 24, and nothing older or newer', () => {
    expect(['22.22.0', '22.23.3', '24.0.0', '24.21.0'].map((v) => isSupportedNode(v))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['20.20.2', '22.12.0', '23.5.0', '25.0.0', '18.19.1'].map((v) => isSupportedNode(v))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('pins a supported version, and the tests themselves run on a supported Node', () => {
    expect(isSupportedNode(RUNTIME_NODE_VERSION)).toBe(true);
    expect(isSupportedNode()).toBe(true);
  });

  it('gives the path of a supported node binary', () => {
    const node = supportedNodePath();
    expect(path.isAbsolute(node)).toBe(true);
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(isSupportedNode(version.replace(/^v/, ''))).toBe(true);
  });
});

describe('downloading a runtime', () => {
  it('never happens under NODE_ENV=production or with ATRIUM_RUNTIME_DOWNLOAD=off', () => {
    expect(runtimeDownloadRefusal({ NODE_ENV: 'production' })).toMatch(/never downloads its runtime/);
    expect(runtimeDownloadRefusal({ ATRIUM_RUNTIME_DOWNLOAD: 'off' })).toMatch(/ATRIUM_RUNTIME_DOWNLOAD is off/);
    expect(runtimeDownloadRefusal({ ATRIUM_RUNTIME_DOWNLOAD: '0' })).toMatch(/is off/);
    expect(runtimeDownloadRefusal({ NODE_ENV: 'development' })).toBeUndefined();
  });

  it('pins the sha512 of the runtime it installs on this platform', () => {
    expect(RUNTIME_INTEGRITY[`node-${process.platform}-${process.arch}@${RUNTIME_NODE_VERSION}`]).toMatch(
      /^sha512-[A-Za-z0-9+/]{86}==$/,
    );
  });

  // The scripts copied into a folder of their own, so `.runtime/` is created there: one download from the npm
  // registry (Node 24.21.0, the other supported line, ~30 MB) checked against a wrong pinned hash, then the right one.
  const copies: string[] = [];
  afterAll(() => {
    for (const folder of copies) rmSync(folder, { recursive: true, force: true });
  });
  /** Runs `supportedNodePath(version)` from a copy of the scripts whose pinned hashes `edit` may change. */
  function runCopy(version: string, env: NodeJS.ProcessEnv, edit = (text: string) => text) {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'atrium-runtime-test-'));
    copies.push(folder);
    const scripts = path.join(folder, 'scripts');
    spawnSync('mkdir', ['-p', scripts]);
    copyFileSync(path.join(import.meta.dirname, 'node-lines.mjs'), path.join(scripts, 'node-lines.mjs'));
    writeFileSync(
      path.join(scripts, 'runtime.mjs'),
      edit(readFileSync(path.join(import.meta.dirname, 'runtime.mjs'), 'utf8')),
    );
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { supportedNodePath } from ${JSON.stringify(path.join(scripts, 'runtime.mjs'))}; console.log(supportedNodePath(${JSON.stringify(version)}))`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'development', ...env }, cwd: folder },
    );
    return { ...result, runtime: path.join(folder, '.runtime') };
  }

  it('refuses under NODE_ENV=production with a message, and downloads nothing', () => {
    const run = runCopy('24.21.0', { NODE_ENV: 'production' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('a production server never downloads its runtime');
    expect(existsSync(run.runtime)).toBe(false);
  });

  it('says what it downloads and from where, refuses a tarball whose hash differs from the pinned one, and installs a matching one', () => {
    const key = `node-${process.platform}-${process.arch}@24.21.0`;
    const pinned = RUNTIME_INTEGRITY[key];
    expect(pinned).toBeDefined();
    const forged = `sha512-${'A'.repeat(86)}==`;
    const tampered = runCopy('24.21.0', {}, (text) => text.replace(String(pinned), forged));
    expect(tampered.stderr).toMatch(new RegExp(`npm package ${key} from \\S+ into `));
    expect(tampered.stderr).toContain('does not match its pinned sha512');
    expect(tampered.status).toBe(1);
    expect(existsSync(path.join(tampered.runtime, 'node-24.21.0', 'node_modules'))).toBe(false);

    const genuine = runCopy('24.21.0', {});
    expect(genuine.stderr).toContain('sha512 verified');
    expect(genuine.status).toBe(0);
    const node = genuine.stdout.trim();
    expect(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe('v24.21.0');
  }, 180_000);
});
