/**
 * Where a worker thread's code is: the TypeScript source through tsx when running from source (vitest, tsx), the
 * built `.js` beside it otherwise (see build.mjs, which emits each worker entry next to the bundle).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineUnavailableError } from './errors.js';

export interface ResolvedWorkerEntry {
  /** What to pass to `new Worker()`. */
  entry: URL | string;
  /** True when `entry` is bootstrap code (eval) that loads a TypeScript file through tsx. */
  eval: boolean;
  /** The file actually run. */
  file: string;
}

const requireHere = createRequire(import.meta.url);

/** Finds tsx's ESM `register()` API (dev/test only: used when the worker entry is a .ts file). */
function findTsxApi(): string | undefined {
  try {
    const pkgPath = requireHere.resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as {
      exports?: Record<string, unknown>;
    };
    const entry = pkg.exports?.['./esm/api'] as { import?: { default?: string } } | undefined;
    const rel = entry?.import?.default;
    if (!rel) return undefined;
    return new URL(rel, pathToFileURL(pkgPath)).href;
  } catch {
    return undefined;
  }
}

/**
 * Maps a worker URL to something `new Worker()` can run:
 *
 * 1. `x.worker.ts` exists (running from source: vitest, tsx) → an eval bootstrap that
 *    registers tsx's loader in the worker and imports the .ts file;
 * 2. otherwise `x.worker.js` / `x.worker.mjs` beside it (tsc output, or an esbuild bundle whose
 *    worker entries were emitted into the same folder as the file holding this code);
 * 3. otherwise `EngineUnavailableError` naming the missing file.
 */
export function resolveWorkerEntry(url: URL): ResolvedWorkerEntry {
  const file = fileURLToPath(url);
  if (/\.(c|m)?js$/.test(file)) {
    if (existsSync(file)) return { entry: url, eval: false, file };
    throw new EngineUnavailableError(`Worker entry file not found: ${file}`);
  }
  const base = file.replace(/\.(m|c)?ts$/, '');
  for (const ext of ['.js', '.mjs']) {
    const candidate = base + ext;
    if (existsSync(candidate) && !existsSync(file)) {
      return { entry: pathToFileURL(candidate), eval: false, file: candidate };
    }
  }
  if (existsSync(file)) {
    const tsxApi = findTsxApi();
    if (!tsxApi) {
      throw new EngineUnavailableError(
        `Worker entry ${file} is TypeScript and the tsx package is not installed: build the workers to .js (see README) or install tsx`,
      );
    }
    const code =
      `import(${JSON.stringify(tsxApi)})` +
      `.then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })` +
      `.catch((e) => { setImmediate(() => { throw e; }); });`;
    return { entry: code, eval: true, file };
  }
  throw new EngineUnavailableError(
    `Worker entry not found: neither ${file} nor ${base}.js exists. When bundling, emit the worker entry files next to the bundle (see README).`,
  );
}
