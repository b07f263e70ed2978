import { sql } from 'kysely';
import type { Db } from './index';

/**
 * How deep folders may nest: levels below a space's root (the root is depth 0, a folder in it depth 1), as Google
 * Drive allows (docs/PRODUCT.md#workspaces-and-folders). Every way a folder gets a parent checks it.
 */
export const MAX_FOLDER_DEPTH = 100;

/**
 * How far every recursive walk over `folders.parent_id` goes, up or down: a little above the cap, so a healthy tree
 * is always walked whole and a damaged one (a cycle, or rows stored deeper than the cap) still ends.
 */
export const FOLDER_WALK_BOUND = MAX_FOLDER_DEPTH + 10;

/** A folder met on a walk up or down the tree; `depth`: steps from where the walk started (0: that folder). */
export interface WalkedFolder {
  id: string;
  parent_id: string | null;
  name: string;
  trashed_at: string | null;
  depth: number;
}

/**
 * `folder_up(start_id, id, parent_id, name, trashed_at, depth)`: folders `startIds` (depth 0) and the folders above
 * each, up to its space's root. Bounded (`FOLDER_WALK_BOUND` steps, `union` with a depth column) so a cycle stored in
 * the table still ends; one recursive query instead of one query per level. Opens a `with recursive` list.
 */
export const folderAncestorsCte = (startIds: readonly string[]) => sql`folder_up(start_id, id, parent_id, name,
    trashed_at, depth) as (
    select id, id, parent_id, name, trashed_at, 0 from folders where id in (${sql.join(startIds)})
    union
    select u.start_id, f.id, f.parent_id, f.name, f.trashed_at, u.depth + 1
    from folders f join folder_up u on f.id = u.parent_id
    where u.depth < ${FOLDER_WALK_BOUND}
  )`;

/** Folder `id` and the folders above it, itself first, the root last (bounded: `folderAncestorsCte`). */
export async function folderAncestors(db: Db, id: string): Promise<WalkedFolder[]> {
  const { rows } = await sql<WalkedFolder & { depth: number | string }>`
    with recursive ${folderAncestorsCte([id])}
    select id, parent_id, name, trashed_at, depth from folder_up order by depth
  `.execute(db);
  return rows.map((row) => ({ ...row, depth: Number(row.depth) }));
}

/**
 * `folder_down(id, parent_id, name, name_key, trashed_at, depth)`: folder `id` (depth 0) and the folders below it.
 * Bounded like `folderAncestorsCte`; `trashed`: walk through folders in the trash too (otherwise the walk stops at
 * them). Opens a `with recursive` list.
 */
export const folderDescendantsCte = (id: string, trashed: boolean) => {
  const live = trashed ? sql`` : sql`and f.trashed_at is null`;
  return sql`folder_down(id, parent_id, name, name_key, trashed_at, depth) as (
      select id, parent_id, name, name_key, trashed_at, 0 from folders where id = ${id}
      union
      select f.id, f.parent_id, f.name, f.name_key, f.trashed_at, d.depth + 1
      from folders f join folder_down d on f.parent_id = d.id
      where d.depth < ${FOLDER_WALK_BOUND} ${live}
    )`;
};

/** The folders below folder `id` (not itself), by level then name; each once (`folderDescendantsCte`). */
export async function folderDescendants(db: Db, id: string, trashed = false): Promise<WalkedFolder[]> {
  const { rows } = await sql<WalkedFolder & { name_key: string; depth: number | string }>`
    with recursive ${folderDescendantsCte(id, trashed)}
    select id, parent_id, name, trashed_at, depth from folder_down where depth > 0 order by depth, name_key, id
  `.execute(db);
  // A cycle stored in the table would list its members again at each turn: keep the first meeting.
  const seen = new Set<string>([id]);
  return rows
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .map((row) => ({
      id: row.id,
      parent_id: row.parent_id,
      name: row.name,
      trashed_at: row.trashed_at,
      depth: Number(row.depth),
    }));
}

/**
 * How many levels the subtree of folder `id` has below it (0: no subfolders): one `max(depth)` over the bounded walk
 * down, no rows loaded. Each folder counts at its first (smallest) depth and the folder itself not at all, so a cycle
 * stored in the table counts as `folderDescendants` lists it.
 */
export async function folderHeight(db: Db, id: string, trashed = false): Promise<number> {
  const { rows } = await sql<{ height: number | string | null }>`
    with recursive ${folderDescendantsCte(id, trashed)}
    select max(first_depth) as height from (
      select min(depth) as first_depth from folder_down where id <> ${id} group by id
    ) met
  `.execute(db);
  return Number(rows[0]?.height ?? 0);
}
