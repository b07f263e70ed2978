// Bundles the server into dist/ with esbuild. Workspace packages (@atrium/*)
// are inlined from TypeScript source; npm dependencies stay external and are
// loaded from node_modules at run time.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';

const here = new URL('.', import.meta.url).pathname;
rmSync(`${here}dist`, { recursive: true, force: true });

/** @type {import('esbuild').Plugin} */
const externalDependencies = {
  name: 'external-dependencies',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@atrium/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

// The local AI engines run in worker threads: each worker entry is bundled
// beside main.js, where the engines' `new URL('./x.worker.ts', import.meta.url)`
// finds it as `./x.worker.js` (see adapters/ai/local/worker-entry.ts).
const localAi = `${here}src/adapters/ai/local/`;
const workers = Object.fromEntries(
  readdirSync(localAi)
    .filter((file) => file.endsWith('.worker.ts'))
    .map((file) => [file.replace(/\.ts$/, ''), `${localAi}${file}`]),
);

// An uploaded GGUF model runs in a child process (modules/llm/llama-host.ts), whose
// `new URL('./llama.child.ts', import.meta.url)` finds the built `./llama.child.js` beside main.js.
const llamaChild = { 'llama.child': `${here}src/modules/llm/llama.child.ts` };

await build({
  entryPoints: { main: `${here}src/main.ts`, ops: `${here}src/ops/cli.ts`, ...workers, ...llamaChild },
  outdir: `${here}dist`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalDependencies],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
// The git commit the system screen shows: ATRIUM_COMMIT (e.g. a Docker build argument), else the checkout's HEAD.
let commit = process.env.ATRIUM_COMMIT?.trim() || null;
if (!commit) {
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: here,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    commit = null; // no git or no repository: the server then says "not recorded"
  }
}
writeFileSync(`${here}dist/build-info.json`, `${JSON.stringify({ commit })}\n`);

console.log(
  `server built: apps/server/dist/main.js, dist/ops.js (backup, restore) and ${Object.keys(workers).length} AI worker entries`,
);
