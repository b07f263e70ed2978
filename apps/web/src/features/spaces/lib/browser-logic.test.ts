import type { FileRecord, Space } from '@atrium/contracts';
import { describe, expect, it } from 'vitest';
import {
  findSpace,
  folderPath,
  membersPath,
  mergePages,
  percentOf,
  permissionsFor,
  roleForListing,
  typeLabel,
  uploadsReducer,
  uploadTotals,
  foldersFor,
  viewOnlyReason,
  baseNameEnd,
} from './browser-logic';

const file = (id: string, fileName = `${id}.txt`): FileRecord => ({
  id,
  fileId: id,
  fileName,
  size: 10,
  contentType: 'text/plain',
  uploadDate: '2026-11-24T10:00:00.000Z',
});
const folder = (id: string) => ({ id, name: id, createdAt: '2026-11-24', updatedAt: '2026-11-24' });

const personal: Space = { kind: 'personal', id: null, name: 'Personal', rootFolderId: 'root-p' };
const team: Space = { kind: 'workspace', id: 'w1', name: 'Team', role: 'viewer', rootFolderId: 'root-w' };

describe('browser paths', () => {
  it('builds the personal and workspace folder routes, encoding ids', () => {
    expect(folderPath({ kind: 'personal' })).toBe('/dashboard/spaces/personal/folders');
    expect(folderPath({ kind: 'personal' }, 'f 1')).toBe('/dashboard/spaces/personal/folders/f%201');
    expect(folderPath({ kind: 'workspace', id: 'w/1' }, null)).toBe('/dashboard/spaces/w%2F1/folders');
    expect(membersPath('w1')).toBe('/dashboard/spaces/w1/members');
  });

  it('finds the space a route names', () => {
    expect(findSpace([personal, team], { kind: 'personal' })).toBe(personal);
    expect(findSpace([personal, team], { kind: 'workspace', id: 'w1' })).toBe(team);
    expect(findSpace([personal, team], { kind: 'workspace', id: 'nope' })).toBeUndefined();
  });
});

describe('roles in the browser', () => {
  it('lets owners and editors write, viewers only read; only owners manage', () => {
    expect(permissionsFor('owner')).toEqual({ canWrite: true, canManage: true });
    expect(permissionsFor('editor')).toEqual({ canWrite: true, canManage: false });
    expect(permissionsFor('viewer')).toEqual({ canWrite: false, canManage: false });
  });

  it("takes the space's role for its own folders and falls back to viewer for a folder of another space", () => {
    expect(roleForListing(personal, { workspaceId: null })).toBe('owner');
    expect(roleForListing(personal, { workspaceId: 'w1' })).toBe('viewer');
    expect(roleForListing({ ...team, role: 'editor' }, { workspaceId: 'w1' })).toBe('editor');
    expect(roleForListing({ ...team, role: 'editor' }, { workspaceId: null })).toBe('viewer');
  });
});

describe('mergePages', () => {
  it('keeps folders before files across pages and drops an entry a later page repeats', () => {
    const merged = mergePages([
      { folders: [folder('a'), folder('b')], files: [] },
      { folders: [folder('b'), folder('c')], files: [file('x')] },
      { folders: [], files: [file('x'), file('y')] },
    ]);
    expect(merged.folders.map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
    expect(merged.files.map((entry) => entry.id)).toEqual(['x', 'y']);
  });

  it('does not confuse a folder and a file with the same id', () => {
    const merged = mergePages([{ folders: [folder('same')], files: [file('same')] }]);
    expect(merged.folders).toHaveLength(1);
    expect(merged.files).toHaveLength(1);
  });
});

describe('uploadsReducer', () => {
  it('tracks each file from 0 % to done or failed, and clearing keeps only running uploads', () => {
    let state = uploadsReducer([], {
      type: 'add',
      items: [
        { key: 'a', name: 'a.txt', size: 200 },
        { key: 'b', name: 'b.txt', size: 100 },
        { key: 'c', name: 'c.txt', size: 0 },
      ],
    });
    expect(state.map(percentOf)).toEqual([0, 0, 100]);
    expect(state.map((item) => item.status)).toEqual(['queued', 'queued', 'queued']);
    for (const key of ['a', 'b', 'c']) state = uploadsReducer(state, { type: 'start', key });
    state = uploadsReducer(state, { type: 'progress', key: 'a', loaded: 50 });
    state = uploadsReducer(state, { type: 'progress', key: 'b', loaded: 500 });
    expect(state.map(percentOf)).toEqual([25, 100, 100]);
    state = uploadsReducer(state, { type: 'failed', key: 'b', error: 'Quota exceeded.' });
    state = uploadsReducer(state, { type: 'done', key: 'c' });
    expect(state.map((item) => item.status)).toEqual(['uploading', 'failed', 'done']);
    expect(state[1]?.error).toBe('Quota exceeded.');
    state = uploadsReducer(state, { type: 'clear' });
    expect(state.map((item) => item.key)).toEqual(['a']);
  });

  it('cancels and retries one file, and sums the queue', () => {
    let state = uploadsReducer([], {
      type: 'add',
      items: [
        { key: 'a', name: 'Photos/a.jpg', size: 100 },
        { key: 'b', name: 'Photos/b.jpg', size: 300 },
      ],
    });
    state = uploadsReducer(state, { type: 'start', key: 'a' });
    state = uploadsReducer(state, { type: 'progress', key: 'a', loaded: 40 });
    state = uploadsReducer(state, { type: 'cancelled', key: 'b' });
    expect(state.map((item) => item.status)).toEqual(['uploading', 'cancelled']);
    expect(uploadTotals(state)).toEqual({ loaded: 40, size: 100, done: 0, failed: 0, active: 1 });
    state = uploadsReducer(state, { type: 'retry', key: 'b' });
    expect(state[1]).toMatchObject({ status: 'queued', loaded: 0 });
    expect(state[1]?.error).toBeUndefined();
    // A finished upload is not cancelled afterwards.
    state = uploadsReducer(state, { type: 'done', key: 'a' });
    state = uploadsReducer(state, { type: 'cancelled', key: 'a' });
    expect(state[0]?.status).toBe('done');
  });
});

describe('foldersFor', () => {
  it('lists the folders of relative paths, parents first', () => {
    expect(foldersFor(['Trip/day 2/b.jpg', 'Trip/a.jpg', 'x.txt', 'Trip/day 1/c/d.jpg'])).toEqual([
      'Trip',
      'Trip/day 1',
      'Trip/day 2',
      'Trip/day 1/c',
    ]);
  });
});

describe('typeLabel', () => {
  it('shows the extension, or the MIME subtype for a name without one', () => {
    expect(typeLabel({ fileName: 'budget.xlsx', contentType: 'application/octet-stream' })).toBe('XLSX');
    expect(typeLabel({ fileName: 'README', contentType: 'text/plain; charset=utf-8' })).toBe('plain');
    expect(typeLabel({ fileName: '.env', contentType: 'text/plain' })).toBe('plain');
  });
});

describe('roles that explain themselves', () => {
  it("gives a viewer the server's reason, and nobody else any", () => {
    expect(viewOnlyReason(team, { workspaceId: 'w1' })).toBe(
      'You can only view this workspace. Ask one of its owners for editor access.',
    );
    expect(viewOnlyReason({ ...team, role: 'editor' }, { workspaceId: 'w1' })).toBeNull();
    expect(viewOnlyReason(personal, { workspaceId: null })).toBeNull();
    // A folder reached through a share (listed on the personal route, elsewhere): view only, said of the folder.
    expect(viewOnlyReason(personal, { workspaceId: 'w9' })).toBe('You can only view this folder.');
  });

  it('selects the base name of a file, not its extension', () => {
    expect(baseNameEnd('report.final.pdf')).toBe(12);
    expect(baseNameEnd('README')).toBe(6);
    expect(baseNameEnd('.env')).toBe(4);
  });
});
