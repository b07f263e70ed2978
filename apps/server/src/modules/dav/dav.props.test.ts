import { describe, expect, it } from 'vitest';
import {
  base36,
  childHrefOf,
  epochMs,
  hrefOf,
  httpDate,
  idPart,
  isoDate,
  NC_NS,
  OC_NS,
  propResponse,
} from './dav.props';
import type { Node } from './dav.tree';
import { DAV_NS, parsePropfind, type PropfindRequest } from './dav.xml';

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

  it('writes the dates of entries from alternating days as Date does', () => {
    const days = [
      '2026-11-28T23:59:59.999Z',
      '2026-11-29T00:00:00.000Z',
      '2026-11-28T12:00:00.000Z',
      '1999-12-31T00:00:00.000Z',
    ];
    for (const date of [...days, ...days]) expect(httpDate(date)).toBe(new Date(date).toUTCString());
  });

  it('reads the time of a date as Date.parse does, also out of range, not canonical or not a date', () => {
    const odd = [
      '2026-02-30T10:00:00.000Z',
      '2026-02-31T23:59:59.999Z',
      '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-11-28T24:00:00.000Z',
      '2026-11-28T23:60:00.000Z',
      '2026-11-28T23:00:60.000Z',
      '0000-01-01T00:00:00.000Z',
      '2026-11-29T01:48:36+01:00',
      '2026-11-29',
      'not a date',
      '',
    ];
    for (const date of [...dates, ...odd, ...odd.slice().reverse()]) expect(epochMs(date)).toBe(Date.parse(date));
  });

  it('formats a date in another ISO form through Date', () => {
    expect(httpDate('2026-11-29T01:48:36+01:00')).toBe('Sun, 29 Nov 2026 00:48:36 GMT');
    expect(isoDate('2026-11-29T01:48:36+01:00')).toBe('2026-11-29T00:48:36.000Z');
  });
});

describe('entity tag pieces', () => {
  it('writes numbers in base 36 as Number.prototype.toString does', () => {
    const numbers = [0, 1, 35, 36, 1295, 1296, 18, 2 ** 31, 2 ** 53 - 1, 2 ** 53, -1, -1_700_000_000_000, 0.5, NaN];
    for (let n = 1; n < 1e15; n = n * 7 + 3) numbers.push(n, Date.UTC(2026, 10, 29) + n);
    for (const n of numbers) expect(base36(n)).toBe(n.toString(36));
    for (let n = 0; n < 50_000; n += 1) expect(base36(n)).toBe(n.toString(36));
  });

  it("takes an id's first 16 characters without dashes as replaceAll and slice do", () => {
    const ids = [
      '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
      '0f1e2d3c-4b5a-6978',
      '0f1e2d3c-4b5a-69',
      '0f1e2d3c-4b5a-697-8796',
      '0f1e2d3c-4b5a--6978',
      '0f1e2d3c4b5a69788796',
      '0f1e-2d3c-4b5a-6978-8796',
      '0f1e2d3c-4b-5a-6978',
      '-0f1e2d3c-4b5a-6978',
      'f',
      '',
      '--------',
      '0f1e2d3c-4b5a-6978-',
    ];
    for (const id of ids) expect(idPart(id)).toBe(id.replaceAll('-', '').slice(0, 16));
  });
});

describe('PROPFIND responses', () => {
  const file: Node = {
    kind: 'file',
    name: 'a & <b>.png',
    path: ['Personal', 'a & <b>.png'],
    id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    size: 1234,
    contentType: 'image/png',
    uploadDate: '2026-11-29T01:02:03.456Z',
    modifiedAt: '2020-01-02T03:04:05.000Z',
    folderId: 'f',
  };
  const nodes: Node[] = [
    file,
    { ...file, contentType: '', modifiedAt: undefined, name: 'plain' },
    {
      kind: 'folder',
      name: 'Folder "x"',
      path: ['Personal', 'Folder "x"'],
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
      fixed: false,
    },
    {
      kind: 'folder',
      name: 'Personal',
      path: ['Personal'],
      id: 'a1b2c3d4-0000-4000-8000-000000000002',
      createdAt: '1970-01-01T00:00:00.000Z',
      updatedAt: '1970-01-01T00:00:00.000Z',
      fixed: true,
    },
    { kind: 'virtual', name: '', path: [], which: 'root' },
    { kind: 'virtual', name: 'Shared with me', path: ['Shared with me'], which: 'shared' },
  ];
  const names = [
    ...['resourcetype', 'displayname', 'getlastmodified', 'creationdate', 'getetag', 'getcontentlength'].map(
      (name) => ({ ns: DAV_NS, name }),
    ),
    ...['getcontenttype', 'supportedlock', 'lockdiscovery', 'quota-used-bytes', 'quota-available-bytes'].map(
      (name) => ({ ns: DAV_NS, name }),
    ),
    ...['fileid', 'id', 'permissions', 'size', 'checksums', 'downloadURL'].map((name) => ({ ns: OC_NS, name })),
    { ns: NC_NS, name: 'has-preview' },
    { ns: 'urn:other', name: 'colour' },
    { ns: '', name: 'plain' },
  ];
  const requests: PropfindRequest[] = [
    { type: 'prop', props: names },
    { type: 'prop', props: [...names].reverse() },
    { type: 'prop', props: [...names.slice(4, 5), ...names.slice(4, 5), ...names.slice(0, 1)] },
    parsePropfind(''),
  ];
  const extrasOf = [
    {},
    {
      sha256: 'ab'.repeat(32),
      quota: { used: 5, available: -3 },
      lockdiscovery: '<d:activelock>x</d:activelock>',
    },
  ];

  it('writes each property of a request as the resource-by-resource path does', () => {
    // A dead property the request does not name sends a response down the path that looks every property up.
    const unrelated = new Map([['urn:unrelated thing', 'v']]);
    for (const request of requests.slice(0, 3)) {
      for (const node of nodes) {
        for (const extras of extrasOf) {
          const planned = propResponse('/h', node, request, { ...extras, dead: new Map() });
          expect(propResponse('/h', node, request, extras)).toBe(planned);
          expect(propResponse('/h', node, request, { ...extras, dead: unrelated })).toBe(planned);
        }
      }
    }
  });

  it('writes allprop with the dead properties between the live ones and those included', () => {
    const dead = new Map([['urn:other colour', 'blue']]);
    const request = parsePropfind(
      '<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:allprop/><d:include><oc:fileid/></d:include></d:propfind>',
    );
    const without = propResponse('/h', file, request, {});
    const withDead = propResponse('/h', file, request, { dead });
    expect(withDead).toBe(
      without.replace('<d:lockdiscovery/>', '<d:lockdiscovery/><P:colour xmlns:P="urn:other">blue</P:colour>'),
    );
    expect(without).toContain('<d:getetag>&quot;0f1e2d3c4b5a6978');
    expect(without).toContain('<oc:fileid>0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0</oc:fileid></d:prop>');
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
