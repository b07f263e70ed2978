import type { FileRecord, FolderListing, FolderListQuery, FolderSort } from '@atrium/contracts';
import { AppError } from '../../errors';
import { presentFile } from '../files';
import { FOLDER_MESSAGES } from './folder-messages';
import { listedNameKeys } from './folder-names';
import type { KeysetAfter } from './folders.repository';
import type { SpacesRepository } from './spaces.repository';

interface Cursor extends KeysetAfter {
  /** 0: still in the folders; 1: in the files. */
  phase: 0 | 1;
}

const FOLDER_SORT_COLUMN: Record<FolderSort, 'name_key' | 'created_at'> = {
  name: 'name_key',
  date: 'created_at',
  size: 'name_key',
  type: 'name_key',
};
const FILE_SORT_COLUMN = { name: 'name', date: 'upload_date', size: 'size', type: 'content_type' } as const;

const encodeCursor = (cursor: Cursor, query: FolderListQuery) =>
  Buffer.from(JSON.stringify([cursor.phase, cursor.value, cursor.id, query.sort, query.order])).toString('base64url');

function decodeCursor(raw: string, query: FolderListQuery): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      (value[0] === 0 || value[0] === 1) &&
      (typeof value[1] === 'string' || typeof value[1] === 'number') &&
      typeof value[2] === 'string' &&
      value[3] === query.sort &&
      value[4] === query.order
    ) {
      return { phase: value[0], value: value[1], id: value[2] };
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.badCursor);
}

/** A listed file with its content hash (`checksums: true`): the hash the WebDAV clients compare. */
export type ListedFile = FileRecord & { sha256?: string };

/** Pages of a folder's content (keyset cursors that name their sort, so a cursor of another sort is a 400). */
export function createFolderPager(repo: Pick<SpacesRepository, 'listChildFolders' | 'listFolderFiles'>) {
  /**
   * One page of folder `id`'s content: its folders first, then its files, in the order asked for; with `checksums`,
   * each file's SHA-256 from the same rows (whoever may list the folder may read its files' details).
   */
  return async function page(
    id: string,
    query: FolderListQuery,
    { checksums = false }: { checksums?: boolean } = {},
  ): Promise<Pick<FolderListing, 'folders' | 'nextCursor'> & { files: ListedFile[] }> {
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query);
    const nameKeys = query.names === undefined ? undefined : listedNameKeys(query.names);
    if (nameKeys?.length === 0) return { folders: [], files: [], nextCursor: null };
    const filter = { kind: query.type, nameKeys };
    const desc = query.order === 'desc';
    const folderColumn = FOLDER_SORT_COLUMN[query.sort];
    const fileColumn = FILE_SORT_COLUMN[query.sort];
    const folders =
      cursor?.phase === 1 ? [] : await repo.listChildFolders(id, folderColumn, desc, query.limit + 1, cursor, nameKeys);
    let nextCursor: string | null = null;
    let files: Awaited<ReturnType<SpacesRepository['listFolderFiles']>> = [];
    /** The cursor after the last folder of this page. */
    const afterFolders = () => {
      const last = folders.at(-1);
      return last ? encodeCursor({ phase: 0, value: last[folderColumn], id: last.id }, query) : null;
    };
    if (folders.length > query.limit) {
      folders.length = query.limit;
      nextCursor = afterFolders();
    } else {
      const room = query.limit - folders.length;
      if (room > 0) {
        files = await repo.listFolderFiles(
          id,
          fileColumn,
          desc,
          room + 1,
          cursor?.phase === 1 ? cursor : undefined,
          filter,
        );
        if (files.length > room) {
          files.length = room;
          const last = files.at(-1);
          if (last) {
            const value =
              fileColumn === 'name'
                ? (last.name_key ?? last.file_name)
                : fileColumn === 'size'
                  ? last.size
                  : last[fileColumn];
            nextCursor = encodeCursor({ phase: 1, value, id: last.id }, query);
          }
        }
      } else if ((await repo.listFolderFiles(id, fileColumn, desc, 1, undefined, filter)).length > 0) {
        // The page ended exactly with the last folder and files follow.
        nextCursor = afterFolders();
      }
    }
    return {
      folders: folders.map((f) => ({ id: f.id, name: f.name, createdAt: f.created_at, updatedAt: f.updated_at })),
      files: files.map((row) => {
        const file = presentFile({
          id: row.id,
          fileName: row.file_name,
          size: row.size,
          contentType: row.content_type,
          uploadDate: row.upload_date,
          modifiedAt: row.modified_at ?? null,
        });
        return checksums ? { ...file, sha256: row.sha256 } : file;
      }),
      nextCursor,
    };
  };
}

/**
 * Every page of folder `id` in turn from `query`'s cursor on, read with `page` (`createFolderPager`): for a caller that
 * reads a whole folder, its policy decided once.
 */
export async function* everyPage(
  page: ReturnType<typeof createFolderPager>,
  id: string,
  query: FolderListQuery,
  options: { checksums?: boolean } = {},
): AsyncGenerator<Awaited<ReturnType<ReturnType<typeof createFolderPager>>>> {
  let cursor = query.cursor;
  do {
    const next = await page(id, cursor === undefined ? query : { ...query, cursor }, options);
    yield next;
    cursor = next.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
