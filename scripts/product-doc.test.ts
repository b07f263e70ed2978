import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Code comments describe the product by citing docs/PRODUCT.md#anchor. This keeps
 * those citations true: every cited anchor must be a heading of docs/PRODUCT.md, and
 * no source file may cite sections of the product specification that the repository
 * does not ship.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PRODUCT_DOC = 'docs/PRODUCT.md';
const SOURCE_DIRS = ['apps', 'packages', 'e2e', 'scripts', 'bench'];
const SOURCE_FILE = /\.(?:ts|tsx|mjs|cjs|js|css|html)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'data']);
/** Markdown files whose links into PRODUCT.md are checked too. */
const DOC_FILES = ['README.md', 'docs/ARCHITECTURE.md', 'docs/SECURITY.md', 'docs/BENCHMARKS.md'];

/**
 * A citation of the outside specification's sections: "spec section 7", "spec sections 4 and 9",
 * "the spec's flags (section 3)", "spec §3", "section 2 of the spec".
 */
const SPEC_SECTION =
  /\bspec(?:ification)?\b.*(?:\bsections?\s+\d|§)|\bsections?\s+\d+(?:\s*(?:,|and)\s*\d+)*\s+of\s+the\s+spec\b/i;
/** A link into the product document: PRODUCT.md#anchor. */
const PRODUCT_ANCHOR = /PRODUCT\.md#([\p{L}\p{M}\p{N}\p{Pc}-]*)/gu;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function githubAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link counts by its text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return entry.isFile() && SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

interface Citation {
  where: string;
  anchor: string;
}

/** Each line of `files` that matches, as "file:line: text". */
function findLines(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

function findCitations(files: string[]): Citation[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(PRODUCT_ANCHOR)].map((match) => ({ where: `${file}:${index + 1}`, anchor: match[1] ?? '' })),
      ),
  );
}

const thisFile = relative(ROOT, fileURLToPath(import.meta.url))
  .split('\\')
  .join('/');
const sources = SOURCE_DIRS.flatMap(sourceFiles).filter((file) => file !== thisFile);
const productDoc = readFileSync(join(ROOT, PRODUCT_DOC), 'utf8');
const anchors = githubAnchors(productDoc);

describe('docs/PRODUCT.md and the code that cites it', () => {
  it('computes anchors as GitHub does', () => {
    const sample = githubAnchors(
      [
        '# Atrium — the product',
        '## Toasts',
        '### Speech to text',
        '## Changes from the original specification',
        '## [Files](#files) and `sizes`',
        '```',
        '## not a heading',
        '```',
        '## Toasts',
      ].join('\n'),
    );
    expect([...sample]).toEqual([
      'atrium--the-product',
      'toasts',
      'speech-to-text',
      'changes-from-the-original-specification',
      'files-and-sizes',
      'toasts-1',
    ]);
  });

  it('has the sections code comments cite by area', () => {
    for (const anchor of [
      'public-site',
      'auth',
      'files',
      'toasts',
      'banners',
      'notifications',
      'chat-assistant',
      'voice-assistant',
      'errors',
      'constants',
    ]) {
      expect(anchors, anchor).toContain(anchor);
    }
  });

  it('scans the source tree', () => {
    // Guards against a scan that silently finds nothing (a moved folder, a wrong root).
    expect(sources).toContain('packages/assistant/src/respond.ts');
    expect(sources.length).toBeGreaterThan(200);
    expect(findCitations(sources).length).toBeGreaterThan(30);
  });

  it('no source file cites a section of the specification the repository does not ship', () => {
    expect(findLines(sources, SPEC_SECTION)).toEqual([]);
  });

  it('every PRODUCT.md#anchor cited in code and docs is a heading of docs/PRODUCT.md', () => {
    const cited = findCitations([...sources, ...DOC_FILES]);
    expect(cited.filter(({ anchor }) => !anchors.has(anchor))).toEqual([]);
  });

  it('every link inside docs/PRODUCT.md to one of its own sections exists', () => {
    const inner = [...productDoc.matchAll(/\]\(#([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    expect(inner.length).toBeGreaterThan(20);
    expect(inner.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });
});
