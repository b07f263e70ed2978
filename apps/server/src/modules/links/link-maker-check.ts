import { userActor, type UserActor } from '../../auth/actor';
import { LINK_MANAGE_ACTION } from '../../auth/policies/link';
import { AppError } from '../../errors';
import type { UsersRepository } from '../auth';
import type { FilesService } from '../files';
import type { FoldersService } from '../spaces';
import type { LinkMaker, LinkRow } from './links.repository';

/**
 * Whether the person who made a link may still share its file or folder (`LINK_MANAGE_ACTION`, the same file and
 * folder policies as creating it): a link lends its maker's right and lasts only as long as that right does. Removed
 * from the workspace, a lowered role, a person share revoked, the item moved out of their reach, the maker deleted:
 * the link is suspended (answers like a revoked link to its bearer; the owners see it marked in the list) and works
 * again once the right is back (docs/PRODUCT.md#public-links).
 */
export function createLinkMakerCheck({
  users,
  files,
  folders,
}: {
  users: Pick<UsersRepository, 'findById'>;
  files: Pick<FilesService, 'authorize'>;
  folders: Pick<FoldersService, 'authorize'>;
}) {
  /** The maker as an actor: from the columns `findByToken` joined (no second query), else looked up. */
  const makerOf = async (link: Pick<LinkRow, 'created_by'> & Partial<LinkMaker>): Promise<UserActor | undefined> => {
    if (link.created_by === null) return undefined;
    if (link.maker_owner_key !== undefined) {
      // findByToken already left out the links of disabled makers.
      if (link.maker_owner_key === null || !link.maker_role) return undefined;
      return userActor({
        id: link.created_by,
        owner_key: link.maker_owner_key,
        role: link.maker_role,
        name: link.maker_name ?? null,
        nickname: link.maker_nickname ?? null,
        email: link.maker_email ?? null,
        picture: link.maker_picture ?? null,
      });
    }
    const maker = await users.findById(link.created_by);
    return maker && maker.disabled_at === null ? userActor(maker) : undefined;
  };
  return async (link: Pick<LinkRow, 'created_by' | 'file_id' | 'folder_id'> & Partial<LinkMaker>): Promise<boolean> => {
    const actor = await makerOf(link);
    if (!actor) return false;
    try {
      if (link.file_id !== null) await files.authorize(actor, link.file_id, LINK_MANAGE_ACTION);
      else if (link.folder_id !== null) await folders.authorize(actor, link.folder_id, LINK_MANAGE_ACTION);
      else return false;
      return true;
    } catch (error) {
      // Refused (403) or out of sight (404): either way the maker cannot share it now.
      if (error instanceof AppError && error.statusCode < 500) return false;
      throw error;
    }
  };
}
