import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, RUNTIME_NODE_VERSION, supportedNodePath } from './runtime.mjs';

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
