// Initial JavaScript of a page of the built client: the entry chunk, the chunks of the page's route (its layout
// and its page, e.g. `dashboard-layout+dashboard-home`, found through the Vite manifest) and everything they import statically, counted as
// requests and gzip (level 6) kilobytes. Static, from apps/web/dist (or the given build): no browser, no timing.
// Usage: npm run build && node bench/initial-js.mjs [dist]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './files-lib.mjs';

const dist = path.resolve(process.argv[2] ?? path.join(root, 'apps/web/dist'));
const assets = path.join(dist, 'assets');
const files = readdirSync(assets).filter((file) => file.endsWith('.js'));
const entry = readFileSync(path.join(dist, 'index.html'), 'utf8').match(/src="\/assets\/([^"]+\.js)"/)?.[1];
if (!entry) throw new Error('no entry script in index.html');

/** @param {string[]} starts */
function closure(starts) {
  const seen = new Set();
  const stack = [...starts];
  while (stack.length) {
    const file = stack.pop();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(path.join(assets, file), 'utf8');
    for (const match of source.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) if (match[1]) stack.push(match[1]);
  }
  return seen;
}

/** @param {string} name */
const marketing = (name) => `src/features/marketing/routes/${name}.tsx`;
const LAYOUT = 'src/app/layouts/dashboard-layout.tsx';
const ROUTES = {
  '/': [marketing('home')],
  '/about': [marketing('about')],
  '/features': [marketing('features')],
  '/pricing': [marketing('pricing')],
  '/contact': [marketing('contact')],
  '/testimonials': [marketing('testimonials')],
  '/dashboard': [LAYOUT, 'src/app/routes/dashboard-home.tsx'],
  '/dashboard/files': [LAYOUT, 'src/features/files/routes/files.tsx'],
};
const manifestFile = path.join(dist, '.vite/manifest.json');
/** @type {Record<string, { file: string }> | undefined} */
const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : undefined;
console.log(`${path.relative(process.cwd(), dist) || '.'}: ${files.length} script files`);
console.log('| page | script requests | initial JS (gzip) |\n| --- | --- | --- |');
for (const [page, names] of Object.entries(ROUTES)) {
  const chunks = names.map((module) => {
    // Builds without a manifest (before the chunk groups): the chunk named after the module.
    const name = path.basename(module, '.tsx');
    const file = manifest
      ? manifest[module]?.file.replace(/^assets\//, '')
      : files.find((candidate) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(candidate));
    if (!file) throw new Error(`no chunk for ${module}`);
    return file;
  });
  const all = closure([entry, ...chunks]);
  const kb = [...all].reduce((sum, file) => sum + gzipSync(readFileSync(path.join(assets, file))).length, 0) / 1024;
  console.log(`| \`${page}\` | ${all.size} | ${kb.toFixed(1)} KB |`);
}
