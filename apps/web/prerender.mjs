/* eslint-disable no-console -- a build script reports what it wrote */
// After `vite build` and `vite build --ssr src/prerender.tsx`: writes dist/pages/<page>.html for each
// public page (its markup, title and meta description inside the built index.html). The server
// answers those paths with them (apps/server/src/plugins/spa.ts); every other route gets index.html.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const ssrDir = path.join(here, 'dist-ssr');
const { render, renderDashboardShell, PAGE_META, ROUTE_PATTERNS, NOT_FOUND_PATH, NOT_FOUND_META } = await import(
  pathToFileURL(path.join(ssrDir, 'prerender.js')).href
);

const escapeHtml = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
const pagesDir = path.join(dist, 'pages');
rmSync(pagesDir, { recursive: true, force: true });
mkdirSync(pagesDir, { recursive: true });
const pages = [...Object.entries(PAGE_META), [NOT_FOUND_PATH, NOT_FOUND_META]];
if (ROUTE_PATTERNS.includes(NOT_FOUND_PATH)) throw new Error(`${NOT_FOUND_PATH} must not be a route`);
writeFileSync(path.join(pagesDir, 'routes.json'), `${JSON.stringify(ROUTE_PATTERNS, null, 2)}\n`);
for (const [pathname, meta] of pages) {
  const markup = await render(pathname);
  if (/<script|style="/i.test(markup)) throw new Error(`${pathname}: prerendered markup has inline script or style`);
  const title = meta.title ? `${meta.title} · Atrium` : 'Atrium — the AI workspace for teams';
  const html = template
    // Replacement functions: page text may contain "$" (prices), which string replacements would interpret.
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/,
      (_, open, close) => `${open}${escapeHtml(meta.description)}${close}`,
    )
    .replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
  if (!html.includes(markup)) throw new Error('index.html has no empty <div id="root"></div> to fill');
  const file = path.join(pagesDir, `${pathname === '/' ? 'index' : pathname.slice(1)}.html`);
  writeFileSync(file, html);
  console.log(`prerendered ${pathname} → ${path.relative(here, file)} (${(html.length / 1024).toFixed(1)} KB)`);
}

// The signed-in area: its HTML carries the dashboard's static frame (painted before any JavaScript runs, replaced
// by the first render) and modulepreload links for the dashboard layout's chunks, so they download beside the
// entry instead of after it. dist/shell/dashboard.html answers every path below /dashboard; the pages people
// land on (the dashboard's home after sign-in, the files screen) also preload their page's chunks.
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
/** The chunk files of manifest keys and all they import statically, minus the entry's (index.html has them). */
const chunksOf = (keys) => {
  const entry = new Set(['index.html', ...(manifest['index.html']?.imports ?? [])]);
  const files = new Set();
  const stack = [...keys];
  for (let key = stack.pop(); key !== undefined; key = stack.pop()) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no chunk for ${key} in the Vite manifest`);
    if (entry.has(key) || files.has(chunk.file)) continue;
    files.add(chunk.file);
    stack.push(...(chunk.imports ?? []));
  }
  return [...files];
};
const shellMarkup = renderDashboardShell();
if (/<script|style="/i.test(shellMarkup)) throw new Error('the dashboard shell has inline script or style');
const LAYOUT = 'src/app/layouts/dashboard-layout.tsx';
const shells = [
  ['shell/dashboard.html', [LAYOUT]],
  ['pages/dashboard.html', [LAYOUT, 'src/app/routes/dashboard-home.tsx']],
  ['pages/dashboard/files.html', [LAYOUT, 'src/features/files/routes/files.tsx']],
];
rmSync(path.join(dist, 'shell'), { recursive: true, force: true });
for (const [name, keys] of shells) {
  const preloads = chunksOf(keys).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
  const html = template
    .replace('</head>', () => `${preloads.map((link) => `  ${link}\n`).join('')}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${shellMarkup}</div>`);
  const file = path.join(dist, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, html);
  console.log(`dashboard shell → dist/${name} (${preloads.length} preloaded chunks)`);
}
rmSync(ssrDir, { recursive: true, force: true });

// Pre-compressed copies (Brotli and gzip) of every text asset: the server sends them to browsers that accept them.
let raw = 0;
let brotli = 0;
const compressAll = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) compressAll(file);
    else if (/\.(js|css|html|svg|json|webmanifest|txt|map)$/.test(entry.name)) {
      const content = readFileSync(file);
      const br = brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
      writeFileSync(`${file}.br`, br);
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      if (!entry.name.endsWith('.map')) {
        raw += content.length;
        brotli += br.length;
      }
    }
  }
};
compressAll(dist);
console.log(`compressed: ${(raw / 1024).toFixed(0)} KB of text assets → ${(brotli / 1024).toFixed(0)} KB with Brotli`);
