import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { FOLDER_MESSAGES } from './folder-messages';
import { folderNameKey, numberedFolderName } from './folder-names';
import type { SpacesRepository } from './spaces.repository';

/**
 * Tries `name`, `name (1)`, `name (2)`… in `parentId` until `write` succeeds: the unique index (parent, name key)
 * settles two simultaneous writes of one name, the loser taking the next number.
 */
export async function withFreeFolderName(
  repo: Pick<SpacesRepository, 'childNameKeysStartingWith'>,
  parentId: string,
  name: string,
  write: (name: string) => Promise<void>,
  excludeId?: string,
): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const taken = await repo.childNameKeysStartingWith(parentId, folderNameKey(name).slice(0, 200), excludeId);
    let n = 0;
    while (taken.has(folderNameKey(numberedFolderName(name, n)))) n++;
    const candidate = numberedFolderName(name, n);
    try {
      await write(candidate);
      return candidate;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new AppError('CONFLICT', FOLDER_MESSAGES.noFreeName);
}
