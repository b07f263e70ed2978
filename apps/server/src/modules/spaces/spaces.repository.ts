import type { Db } from '../../db';
import { createFoldersRepository } from './folders.repository';
import { createWorkspacesRepository } from './workspaces.repository';

/**
 * Plain queries of the spaces module, one object for its services: workspaces, members and invitations
 * (`workspaces.repository.ts`) and folders (`folders.repository.ts`); no product rules here.
 */
export const createSpacesRepository = (db: Db) => ({
  /** Runs `work` in one transaction (a workspace and its root folder are created together). */
  transaction: <T>(work: (trx: Db) => Promise<T>): Promise<T> => db.transaction().execute(work),
  ...createWorkspacesRepository(db),
  ...createFoldersRepository(db),
});

export type SpacesRepository = ReturnType<typeof createSpacesRepository>;
