import type { FileRecord } from '@atrium/contracts';
import type { AccessFacts } from '../../auth/access-facts';
import type { UserActor } from '../../auth/actor';
import { requireFile, requireMoveOut } from '../../auth/policies/file';
import { AppError } from '../../errors';
import { checkFileName, fileNameKey } from '../../lib/file-names';
import { iso } from '../../lib/time';
import type { RequestContext } from '../../lib/http/request-context';
import { FILE_MESSAGES, type FilesCore } from './files.core';
import { presentFile } from './files.presenter';
import { thumbnailKey, type StoredFile, type UploadTarget } from './stored-file';

/** Whether `target` is in another space than `file` (another workspace, or another person's personal space). */
const leftSpace = (file: StoredFile, target: UploadTarget): boolean =>
  target.workspaceId !== file.workspaceId || (target.workspaceId === null && target.ownerKey !== file.ownerKey);

/** The changes room: rename and move (between spaces too), trash, restore from the trash, purge. */
export function createFilesChanges(core: FilesCore) {
  const { repo, blobs, clock, log, events, placement, quota, find, authorized, recordChange, withFreeName } = core;
  return {
    /**
     * Renames a file and/or moves it into another folder, of its space or of any space the actor may write to
     * (leaving a space needs its `manage` right — its owner: `requireMoveOut`; the bytes then count against the new
     * space's quota). A name taken in the target folder becomes `name (1).ext`.
     */
    async update(
      actor: UserActor,
      id: string,
      change: { fileName?: string | undefined; folderId?: string | undefined },
      context?: RequestContext,
    ): Promise<FileRecord> {
      const file: StoredFile & Partial<AccessFacts> = await requireFile(actor, 'write', () => find(actor, id));
      await core.writeLocks?.requireUnlocked(actor.id, { file: file.id, folderId: file.folderId });
      let target: UploadTarget | undefined;
      if (change.folderId !== undefined && change.folderId !== file.folderId) {
        const folder = await placement.authorize(actor, change.folderId, 'write');
        target = await placement.targetOfFolder(folder.id, actor.id);
        if (!target) throw new AppError('FOLDER_NOT_FOUND');
        if (leftSpace(file, target)) {
          requireMoveOut(actor, file);
          await quota.requireRoom(target, file.size);
        } else {
          // Within one space the file keeps whose it is.
          target = { ...target, ownerKey: file.ownerKey };
        }
      }
      const folderId = target?.folderId ?? file.folderId;
      const wanted = change.fileName === undefined ? file.fileName : checkFileName(change.fileName);
      if (folderId === null) throw new AppError('CONFLICT', FILE_MESSAGES.folderGone);
      const name = await withFreeName(
        folderId,
        wanted,
        (candidate) =>
          repo.update(id, {
            file_name: candidate,
            name_key: fileNameKey(candidate),
            ...(target
              ? { folder_id: target.folderId, workspace_id: target.workspaceId, owner_key: target.ownerKey }
              : {}),
          }),
        id,
      );
      const changeContext = { actor: actor.ownerKey, ...context };
      if (name !== file.fileName) {
        await recordChange('file.renamed', id, changeContext, null, { from: file.fileName, to: name });
      }
      if (target && file.folderId !== folderId) {
        // Between spaces the old folder's name stays out: readers of the new space need not learn it.
        const [fromName, toName] = await Promise.all([
          leftSpace(file, target) || file.folderId === null ? undefined : repo.folderName(file.folderId),
          repo.folderName(folderId),
        ]);
        await recordChange('file.moved', id, changeContext, null, {
          name,
          from: leftSpace(file, target) ? { otherSpace: true } : { id: file.folderId, name: fromName ?? null },
          to: { id: folderId, name: toName ?? null },
        });
      }
      return presentFile({ ...file, fileName: name });
    },

    /**
     * Moves a file to the trash of its space (the spec's delete): it disappears from every list, link and share at
     * once; `DELETE /api/trash/{id}` or the purge job removes it for good (`purge`).
     */
    async remove(actor: UserActor, id: string): Promise<{ id: string; deleted: true }> {
      const file = await authorized(actor, id, 'delete');
      await core.writeLocks?.requireUnlocked(actor.id, { file: file.id, folderId: file.folderId });
      if (!(await repo.trash(id, actor.id, iso(clock.now())))) throw new AppError('FILE_NOT_FOUND');
      return { id, deleted: true };
    },

    /**
     * Puts trashed file `id` back into `folderId` (the caller chose it: its old folder, or the root of its space when
     * that is gone); a name taken there becomes `name (1).ext`. Answers the name it got.
     */
    async restoreInto(id: string, folderId: string, fileName: string): Promise<string> {
      return withFreeName(folderId, fileName, (name) => repo.untrash(id, folderId, name, fileNameKey(name)));
    },

    /**
     * Deletes file `id` for good, in the trash or not: metadata first (its shares, links and versions' rows go with
     * it), then its bytes, its versions' and its thumbnail (a blob a crash leaves behind is an orphan the sweep
     * removes).
     */
    async purge(id: string): Promise<boolean> {
      const row = await repo.findAnyById(id);
      if (!row) return false;
      const versionKeys = await repo.versionBlobKeys(id);
      if (!(await repo.deleteById(id))) return false;
      await Promise.all([
        blobs.delete(row.blob_key),
        blobs.delete(thumbnailKey(row.blob_key)),
        ...versionKeys.map((key) => blobs.delete(key)),
      ]).catch((error: unknown) => log?.warn({ err: error, id }, 'could not remove the bytes of a purged file'));
      await events?.emit('items.purged', { fileIds: [id], folderIds: [] });
      return true;
    },
  };
}
