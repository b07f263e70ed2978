// Bundles the server into dist/ with esbuild. Workspace packages (@atrium/*)
// are inlined from TypeScript source; npm dependencies stay external and are
// loaded from node_modules at run time.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

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

await build({
  entryPoints: { main: `${here}src/main.ts` },
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
console.log('server built: apps/server/dist/main.js');
