import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Rolldown } from 'vite';
import { defineConfig } from 'vite';

const serverUrl = process.env.ATRIUM_SERVER_URL ?? 'http://localhost:3001';
const proxied = ['/api', '/public/api', '/oidc', '/healthz', '/readyz'];
const src = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');

type ModuleInfo = NonNullable<ReturnType<Rolldown.ChunkingContext['getModuleInfo']>>;

const isPackage = (id: string) => id.includes(`${path.sep}node_modules${path.sep}`);

/**
 * Every module `roots` import statically, directly or through others (the roots included). With `ownOnly`, the
 * walk stops at packages: a package's index re-exports all of it (every icon of lucide-react), not what is used.
 */
function staticClosure(roots: string[], info: (id: string) => ModuleInfo | null, ownOnly = false): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    if (!ownOnly || !isPackage(id)) stack.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}

type Group = 'shared' | 'app';

/**
 * The chunk group of the modules the signed-in area imports. `app`: its shared code, i.e. all the dashboard layout
 * imports and the app's own modules two or more signed-in pages import — never a module a public page loads, so
 * `/` does not grow. `shared`: the few own modules both a public page and the signed-in area use (`lib/http.ts`…):
 * in `app` they would make that public page load all of it. Route modules keep their own chunks (the Vite manifest
 * names them: apps/web/prerender.mjs preloads the layout's).
 */
function chunkGroups(info: (id: string) => ModuleInfo | null): Map<string, Group> {
  const router = path.join(src, 'app', 'router.tsx');
  const layout = path.join(src, 'app', 'layouts', 'dashboard-layout.tsx');
  const lazyRoutes = info(router)?.dynamicallyImportedIds ?? [];
  const marketing = lazyRoutes.filter((id) => id.startsWith(path.join(src, 'features', 'marketing') + path.sep));
  const publicModules = staticClosure([path.join(src, 'main.tsx'), ...marketing], info, true);
  const signedIn = lazyRoutes.filter((id) => id.startsWith(src) && !marketing.includes(id));
  const uses = new Map<string, number>();
  for (const route of signedIn.filter((id) => id !== layout)) {
    for (const id of staticClosure([route], info, true)) if (!isPackage(id)) uses.set(id, (uses.get(id) ?? 0) + 1);
  }
  const shared = [...uses].filter(([id, count]) => count >= 2 && !signedIn.includes(id)).map(([id]) => id);
  const groups = new Map<string, Group>();
  for (const id of staticClosure([...(info(layout)?.importedIds ?? []), ...shared], info)) {
    if (!publicModules.has(id)) groups.set(id, 'app');
    else if (!isPackage(id)) groups.set(id, 'shared');
  }
  return groups;
}

const groupsOfBuild = new WeakMap<Rolldown.ChunkingContext, Map<string, Group>>();
/** A code-splitting group of the modules `chunkGroups` puts in `name`. */
const group = (name: Group, priority: number): Rolldown.CodeSplittingGroup => ({
  name: (id, ctx) => {
    let groups = groupsOfBuild.get(ctx);
    if (!groups) {
      groups = chunkGroups((moduleId) => ctx.getModuleInfo(moduleId));
      groupsOfBuild.set(ctx, groups);
    }
    return groups.get(id) === name ? name : null;
  },
  debugName: name,
  priority,
});

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: serverUrl, changeOrigin: false }])),
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // A strict CSP forbids inline scripts: keep Vite from inlining the modulepreload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // The Vite manifest: the build's prerender step reads it to preload the dashboard layout's chunks.
    manifest: true,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks (docs/BENCHMARKS.md, "Dashboard first load"): what every page loads first in one
        // `framework` chunk, every icon in one `icons` chunk, the signed-in area's shared code in one `app` chunk
        // (and the little of it public pages use too in `shared`).
        codeSplitting: {
          groups: [
            { name: 'framework', tags: ['$initial'], priority: 4 },
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 3 },
            group('shared', 2),
            group('app', 1),
          ],
        },
      },
    },
  },
});
