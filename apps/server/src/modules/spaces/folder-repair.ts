import type { FastifyBaseLogger } from 'fastify';
import { MAX_FOLDER_DEPTH } from '../../db/folder-walk';
import { iso, type Clock } from '../../lib/time';
import type { EventEmitter } from '../../events';
import { withFreeFolderName } from './folder-free-name';
import { folderNameKey } from './folder-names';
import type { StrandedFolder } from './folders.repository';
import type { SpacesRepository } from './spaces.repository';

/**
 * Which of the stranded folders to put back at their space's root so every chain reaches a root within the cap:
 * each folder one level too deep (its parent is at the cap), one member of each cycle, and, below those, each folder
 * that would still be too deep once they moved (a walk over the stranded rows only, in memory).
 */
function foldersToReattach(rows: (StrandedFolder & { parent_reached: boolean })[]) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const children = new Map<string, StrandedFolder[]>();
  for (const row of rows) {
    if (row.parent_id !== null && byId.has(row.parent_id)) {
      children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row]);
    }
  }
  const picked: { row: StrandedFolder; reason: 'cycle' | 'too deep' }[] = [];
  const placed = new Set<string>();
  const place = (top: StrandedFolder, reason: 'cycle' | 'too deep') => {
    picked.push({ row: top, reason });
    placed.add(top.id);
    const queue: [StrandedFolder, number][] = [[top, 1]];
    for (let i = 0; i < queue.length; i++) {
      const [folder, depth] = queue[i] ?? [top, 1];
      for (const child of children.get(folder.id) ?? []) {
        if (placed.has(child.id)) continue;
        placed.add(child.id);
        if (depth + 1 > MAX_FOLDER_DEPTH) {
          picked.push({ row: child, reason: 'too deep' });
          queue.push([child, 1]);
        } else queue.push([child, depth + 1]);
      }
    }
  };
  for (const row of rows) if (row.parent_reached) place(row, 'too deep');
  for (const row of rows) {
    // Not below a too-deep folder: up its parents it meets a cycle; the first folder met twice is on it.
    const seen = new Set<string>();
    let current: StrandedFolder | undefined = row;
    while (current && !placed.has(current.id) && !seen.has(current.id)) {
      seen.add(current.id);
      current = current.parent_id === null ? undefined : byId.get(current.parent_id);
    }
    if (current && !placed.has(current.id)) place(current, 'cycle');
  }
  return picked;
}

/** The start-up repair of the folder tree (`FoldersService.repairTree`). */
export function createFolderRepair({
  repo,
  clock,
  log,
  events,
}: {
  repo: SpacesRepository;
  clock: Clock;
  log?: FastifyBaseLogger | undefined;
  events?: EventEmitter | undefined;
}) {
  /**
   * The start-up repair: folders whose chain of parents does not reach a root within `MAX_FOLDER_DEPTH` (a cycle,
   * or rows stored deeper than the cap before it existed) go back to the root of their space, under a free name,
   * logged and recorded as `folder.moved` by nobody. One bounded query that answers nothing on a healthy table.
   * Answers the folders it moved.
   */
  return async function repairTree(): Promise<{ id: string; reason: 'cycle' | 'too deep'; name: string }[]> {
    const repaired: { id: string; reason: 'cycle' | 'too deep'; name: string }[] = [];
    // One pass fixes everything; a second one confirms (a write made meanwhile may call for another).
    for (let pass = 0; pass < 3; pass++) {
      const stranded = await repo.strandedFolders();
      if (stranded.length === 0) break;
      for (const { row, reason } of foldersToReattach(stranded)) {
        const root = await repo.rootOf(row);
        if (!root) continue;
        const now = iso(clock.now());
        // A folder at the top of a trash entry keeps its name key (`/trash/<id>`): it holds no name in its parent.
        const name = row.name_key.startsWith('/trash/')
          ? (await repo.updateFolder(row.id, { parent_id: root.id, updated_at: now }), row.name)
          : await withFreeFolderName(
              repo,
              root.id,
              row.name,
              (chosen) =>
                repo.updateFolder(row.id, {
                  parent_id: root.id,
                  name: chosen,
                  name_key: folderNameKey(chosen),
                  updated_at: now,
                }),
              row.id,
            );
        repaired.push({ id: row.id, reason, name });
        log?.warn(
          { folderId: row.id, formerParentId: row.parent_id, rootId: root.id, reason, name },
          'folder tree repaired: a folder whose parents did not reach its root went back to the root of its space',
        );
        await events?.emit('folder.moved', {
          actor: null,
          target: `folder:${row.id}`,
          details: {
            name,
            from: { id: row.parent_id, name: null },
            to: { id: root.id, name: root.name },
            repaired: reason,
          },
        });
      }
    }
    return repaired;
  };
}
