import { describe, expect, it } from 'vitest';
import { neighbours, rememberViewerList, viewerListFor } from './viewer-list';
import { openedInApp, VIEWER_OPENED_STATE, viewerHref, withoutViewer } from './viewer-link';

describe('viewer list', () => {
  it('steps through the remembered list when it holds the file, else leaves it to the folder', () => {
    rememberViewerList([
      { id: 'a', name: 'a.png' },
      { id: 'b', name: 'b.png' },
      { id: 'c', name: 'c.png' },
    ]);
    const list = viewerListFor('b');
    expect(list).not.toBeNull();
    expect(neighbours(list ?? [], 'b')).toEqual({
      previous: { id: 'a', name: 'a.png' },
      next: { id: 'c', name: 'c.png' },
      position: '2 of 3',
    });
    expect(neighbours(list ?? [], 'a').previous).toBeUndefined();
    expect(viewerListFor('elsewhere')).toBeNull();
    expect(neighbours([{ id: 'x', name: 'x' }], 'x').position).toBeUndefined();
  });
});

describe('viewer address', () => {
  it('adds and drops ?file= keeping the other parameters; knows who opened it', () => {
    expect(viewerHref('f 1', '/dashboard/search', '?q=cat')).toBe('/dashboard/search?q=cat&file=f+1');
    expect(withoutViewer('/dashboard/search', '?q=cat&file=f')).toBe('/dashboard/search?q=cat');
    expect(openedInApp(VIEWER_OPENED_STATE)).toBe(true);
    expect(openedInApp(null)).toBe(false);
  });
});
