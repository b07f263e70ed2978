import { describe, expect, it } from 'vitest';
import { emptySelection, idsOf, keepListed, toggleAll, toggleRow } from './selection';

const order = ['folder:a', 'file:b', 'file:c', 'file:d', 'file:e'];

describe('row selection', () => {
  it('toggles one row, and with Shift the range from the last row clicked', () => {
    let selection = toggleRow(emptySelection, order, 'file:b', false);
    expect([...selection.keys]).toEqual(['file:b']);
    selection = toggleRow(selection, order, 'file:e', true);
    expect([...selection.keys].sort()).toEqual(['file:b', 'file:c', 'file:d', 'file:e']);
    // Shift-clicking a selected row upwards clears the range back to it.
    selection = toggleRow(selection, order, 'file:c', true);
    expect([...selection.keys].sort()).toEqual(['file:b']);
    selection = toggleRow(selection, order, 'file:b', false);
    expect(selection.keys.size).toBe(0);
  });

  it('selects all or none, keeps only listed rows, and splits ids by kind', () => {
    const all = toggleAll(emptySelection, order);
    expect(all.keys.size).toBe(5);
    expect(toggleAll(all, order).keys.size).toBe(0);
    expect([...keepListed(all, ['file:b', 'file:x']).keys]).toEqual(['file:b']);
    expect(idsOf(all.keys)).toEqual({ fileIds: ['b', 'c', 'd', 'e'], folderIds: ['a'] });
  });
});
