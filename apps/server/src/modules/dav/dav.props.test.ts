import { describe, expect, it } from 'vitest';
import { childHrefOf, hrefOf, httpDate, isoDate } from './dav.props';
import type { Node } from './dav.tree';

describe('PROPFIND dates', () => {
  // Stored dates are toISOString() output; a few hand-picked edges, then a spread over four centuries.
  const dates = [
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '2000-02-29T12:00:00.000Z',
    '2026-11-29T00:48:36.123Z',
    '0999-03-01T01:02:03.004Z',
    '9999-12-31T23:59:59.999Z',
    ...Array.from({ length: 2000 }, (_, i) => new Date(Date.UTC(1800, 0, 1) + i * 63_113_904_123).toISOString()),
  ];

  it.each([
    ['getlastmodified', httpDate, (d: Date) => d.toUTCString()],
    ['creationdate', isoDate, (d: Date) => d.toISOString()],
  ] as const)('writes %s exactly as Date does', (_name, format, reference) => {
    for (const date of dates) expect(format(date)).toBe(reference(new Date(date)));
  });

  it('formats a date in another ISO form through Date', () => {
    expect(httpDate('2026-11-29T01:48:36+01:00')).toBe('Sun, 29 Nov 2026 00:48:36 GMT');
    expect(isoDate('2026-11-29T01:48:36+01:00')).toBe('2026-11-29T00:48:36.000Z');
  });
});

describe('hrefs of a listing', () => {
  it("writes a child's href from its collection's exactly as from the child's own path", () => {
    const base = '/remote.php/dav/files/owner%20key';
    const folder = (path: string[]) =>
      ({ kind: 'folder', name: path.at(-1) ?? '', path, id: 'f', createdAt: '', updatedAt: '', fixed: false }) as const;
    const file = (path: string[]) =>
      ({
        kind: 'file',
        name: path.at(-1) ?? '',
        path,
        id: 'x',
        size: 1,
        contentType: 'text/plain',
        uploadDate: '',
        folderId: 'f',
      }) as const;
    const root: Node = { kind: 'virtual', name: '', path: [], which: 'root' };
    const parents = [root, folder(['Personal']), folder(['Workspaces', 'Team #1', 'a/b?c', 'Ünïcödé & <x>'])];
    for (const parent of parents) {
      for (const name of ['plain.txt', 'with space', '100%', 'ä#?&', '..']) {
        for (const child of [file([...parent.path, name]), folder([...parent.path, name])]) {
          expect(childHrefOf(hrefOf(base, parent), child)).toBe(hrefOf(base, child));
        }
      }
    }
  });
});
