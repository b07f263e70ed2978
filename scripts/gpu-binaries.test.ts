import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GPU_BINARY } from './gpu-binaries.mjs';

// The install stays lean (README, "AI"): `npm ci` installs what package-lock.json lists, and it lists node-llama-cpp's
// CPU binary but none of its CUDA or Vulkan builds. After npm writes them back, `npm run prune-gpu-binaries`.
describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  it('holds the CPU build of node-llama-cpp and none of its GPU builds', () => {
    expect(Object.keys(lock.packages)).toContain('node_modules/@node-llama-cpp/linux-x64');
    expect(Object.keys(lock.packages).filter((key) => GPU_BINARY.test(key))).toEqual([]);
  });
});
