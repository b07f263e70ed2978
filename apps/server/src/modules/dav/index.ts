/**
 * The WebDAV module's face (docs/PRODUCT.md#webdav): the files of a person as a WebDAV tree at
 * `/remote.php/dav/files/{ownerKey}/` (the Nextcloud clients' path; HTTP Basic with an app password) and `/dav/`
 * (the same tree; Basic, or the signed-in browser's session cookie). Protocol routes like tus's: not in the endpoint
 * table, declared `access: 'dav'` (docs/ARCHITECTURE.md, the named exception).
 *
 * `dav.routes.ts` (methods Fastify learns, authentication, the owner key rule, path decoding), `dav.tree.ts` (the
 * tree: Personal/, Workspaces/<name>/, Shared with me/, resolved through the spaces, files and sharing services and
 * their policies — never their repositories), `dav.methods.ts` (PROPFIND streamed, GET/HEAD through send-blob, PUT
 * streamed through the files service's ingest, MKCOL, DELETE to the trash, COPY/MOVE in `dav.copy-move.ts`),
 * `dav.props.ts` (live properties, `oc:`/`nc:` ones, the multistatus), `dav.xml.ts` (bounded namespace-aware parsing
 * with saxes; malformed → 400).
 */
import type { FastifyInstance } from 'fastify';
import type { EventEmitter } from '../../events';
import type { AppPasswordsService } from '../app-passwords';
import type { FilesService, WriteLocks } from '../files';
import type { SharingService } from '../sharing';
import type { FoldersService, WorkspacesService } from '../spaces';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import { createDavLocks } from './dav.locks';
import { createDavMethods } from './dav.methods';
import { proppatch } from './dav.proppatch';
import { createDavRepository } from './dav.repository';
import { registerDavRoutes } from './dav.routes';
import { createDavTree } from './dav.tree';

export async function createDavModule(
  app: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    appPasswords: AppPasswordsService;
    files: FilesService;
    /** Where the app's file writes ask about DAV locks (filled in here). */
    writeLocks: WriteLocks;
    folders: FoldersService;
    workspaces: WorkspacesService;
    sharing: SharingService;
    events: EventEmitter;
    maxUploadBytes: number;
  },
) {
  const tree = createDavTree(deps);
  const repo = createDavRepository(deps.db);
  // The app's renames, moves and deletes refuse (423) a file locked over WebDAV by someone else.
  deps.writeLocks.check = async (actor, fileId, folderId) => {
    const locks = await repo.locksOn(folderId === null ? [fileId] : [fileId, folderId], iso(deps.clock.now()));
    const reaching = locks.filter((lock) => lock.resource_id === fileId || lock.depth === 'infinity');
    if (reaching.length > 0 && !reaching.some((lock) => lock.user_id === actor.id)) {
      throw new AppError('LOCKED', 'This file is locked by someone editing it in another app. Try again later.');
    }
  };
  const methods = createDavMethods({
    ...deps,
    tree,
    extras: {
      locks: createDavLocks({ ...deps, repo, tree }),
      deadProps: (id) => repo.properties(id),
      deadPropsOf: (ids) => repo.propertiesOf(ids),
      proppatch: (request, reply, dav, node) => proppatch({ ...deps, repo }, request, reply, dav, node),
    },
  });
  await registerDavRoutes(app, { appPasswords: deps.appPasswords, methods });
}
