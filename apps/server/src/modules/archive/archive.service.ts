import type { Readable } from 'node:stream';
import type { ArchiveRequest } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { addFolderTree, createZipStream } from '../../lib/http/zip-stream';
import { type FilesService, toStoredFile, type StoredFile } from '../files';
import type { LinksRepository } from '../links';
import type { FoldersService } from '../spaces';

export interface ArchiveServiceDeps {
  files: Pick<FilesService, 'authorize' | 'zipEntryOf'>;
  folders: Pick<FoldersService, 'authorize'>;
  /** The walk of a folder's tree (the same queries as a folder link's zip). */
  tree: Pick<LinksRepository, 'subfolders' | 'filesIn'>;
}

/**
 * `POST /api/files/archive`: the files and folders a user chose, as one zip streamed as it is read (the shared
 * `createZipStream`). Every item is authorised for `read` before a byte is sent — a file or folder the caller may
 * not see answers 404 (`FILE_NOT_FOUND` / `FOLDER_NOT_FOUND`) and nothing is streamed; a folder brings everything
 * below it (reading a folder reaches its whole subtree: membership, ownership and shares all do).
 */
export function createArchiveService({ files, folders, tree }: ArchiveServiceDeps) {
  /**
   * The name of the one folder holding every chosen item, when the caller may read it: a selection in `Reports`
   * downloads as `Reports.zip`, one at a space's root as the space's name (its root folder bears it). Items from
   * several folders, or a folder the caller reaches only below it (a share), give none.
   */
  async function commonParentName(actor: UserActor, parentIds: (string | null)[]): Promise<string | null> {
    const [first] = parentIds;
    if (!first || parentIds.some((id) => id !== first)) return null;
    try {
      return (await folders.authorize(actor, first, 'read')).name;
    } catch {
      return null;
    }
  }

  return {
    async archive(
      actor: UserActor,
      request: ArchiveRequest,
    ): Promise<{ fileName: string; size: number; stream: Readable }> {
      const fileIds = [...new Set(request.fileIds)];
      const folderIds = [...new Set(request.folderIds)];
      // Authorise everything first, in order: the first refusal ends the request before any byte is sent.
      const chosenFiles: StoredFile[] = [];
      for (const id of fileIds) chosenFiles.push(await files.authorize(actor, id, 'read'));
      const chosenFolders = [];
      for (const id of folderIds) chosenFolders.push(await folders.authorize(actor, id, 'read'));

      const zip = createZipStream();
      for (const folder of chosenFolders) {
        await addFolderTree(zip, zip.folder('', folder.name), folder.id, tree, (row) =>
          files.zipEntryOf(toStoredFile(row)),
        );
      }
      for (const file of chosenFiles) {
        const { name, source } = files.zipEntryOf(file);
        zip.file('', name, source);
      }
      const { size, stream } = await zip.finish();
      const only = chosenFolders.length + chosenFiles.length === 1;
      const single = chosenFolders[0]?.name ?? chosenFiles[0]?.fileName.replace(/\.[^.]*$/, '');
      if (only && single) return { fileName: `${single}.zip`, size, stream };
      const parent = await commonParentName(actor, [
        ...chosenFolders.map((folder) => folder.parent_id),
        ...chosenFiles.map((file) => file.folderId),
      ]);
      return { fileName: `${parent ?? 'files'}.zip`, size, stream };
    },
  };
}

export type ArchiveService = ReturnType<typeof createArchiveService>;
