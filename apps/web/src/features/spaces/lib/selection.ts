/** Rows chosen in a list, by key (`file:<id>`, `folder:<id>`), and the row a shift-click range starts from. */
export interface Selection {
  keys: ReadonlySet<string>;
  anchor: string | null;
}

export const emptySelection: Selection = { keys: new Set(), anchor: null };

/**
 * A click on row `key`'s checkbox, in list order `order`: toggles it; with Shift, sets every row from the anchor
 * (the last row clicked) to it to the state the clicked row gets, as file managers do.
 */
export function toggleRow(selection: Selection, order: readonly string[], key: string, shift: boolean): Selection {
  const keys = new Set(selection.keys);
  const select = !keys.has(key);
  const from = selection.anchor === null ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(key);
  if (shift && from >= 0 && to >= 0) {
    const [start, end] = from < to ? [from, to] : [to, from];
    for (const row of order.slice(start, end + 1)) {
      if (select) keys.add(row);
      else keys.delete(row);
    }
  } else if (select) keys.add(key);
  else keys.delete(key);
  return { keys, anchor: key };
}

/** Selects every row of `order`, or none when all are selected already. */
export function toggleAll(selection: Selection, order: readonly string[]): Selection {
  const all = order.length > 0 && order.every((key) => selection.keys.has(key));
  return { keys: all ? new Set() : new Set(order), anchor: null };
}

/** Keeps only rows still listed (after a delete or a reload). */
export const keepListed = (selection: Selection, order: readonly string[]): Selection => {
  const listed = new Set(order);
  const keys = [...selection.keys].filter((key) => listed.has(key));
  return keys.length === selection.keys.size ? selection : { keys: new Set(keys), anchor: selection.anchor };
};

/** The ids of a selection, by kind (the archive request's shape). */
export function idsOf(keys: Iterable<string>): { fileIds: string[]; folderIds: string[] } {
  const fileIds: string[] = [];
  const folderIds: string[] = [];
  for (const key of keys) {
    const [kind, ...rest] = key.split(':');
    (kind === 'folder' ? folderIds : fileIds).push(rest.join(':'));
  }
  return { fileIds, folderIds };
}
