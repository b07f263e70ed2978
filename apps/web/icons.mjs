/* eslint-disable no-console -- a build script reports what it wrote */
// Writes the web app manifest's PNG icons (public/icons/) from the favicon's drawing, with sharp.
// Run `node apps/web/icons.mjs` after changing the logo; the PNGs are committed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'public', 'icons');
const BRAND = '#4f46e5';
const GLYPH =
  '<path d="M9 23 16 8l7 15m-11.5-5h9" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>';

// "any": the favicon as drawn (rounded square). "maskable": a full-bleed square with the glyph inside the
// central safe zone (a circle of 80 % of the size), so platforms may crop it to any shape.
const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${BRAND}"/>${GLYPH}</svg>`;
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(4.8 4.8) scale(0.7)">${GLYPH}</g></svg>`;

mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  for (const [purpose, svg] of [
    ['any', any],
    ['maskable', maskable],
  ]) {
    const file = path.join(out, `icon-${purpose}-${size}.png`);
    await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
      .resize(size, size)
      .png({ compressionLevel: 9, palette: true })
      .toFile(file);
    console.log(`wrote ${path.relative(here, file)}`);
  }
}
