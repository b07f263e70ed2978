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
 * with saxes; malformed → 400), `dav.locks.ts` (LOCK, UNLOCK, the `If` header), `dav.repository.ts` (dead properties
 * and locks, shared by every instance), `dav.chunked.ts` (the Nextcloud clients' chunked uploads under
 * `/remote.php/dav/uploads/{ownerKey}/`, chunks in the blob store, rows in `dav.chunked.repository.ts`; the module
 * returns their sweep for the jobs).
 *
 * Locks bind the app too: `createDavWriteLocks` is the `WriteLocks` check the spaces and files services ask before
 * every change (`auth/policies/write-lock.ts` decides). What is purged for good (`items.purged`) takes its locks and
 * dead properties with it.
 */
import type { FastifyInstance } from 'fastify';
import { requireUnlocked, type WriteLocks } from '../../auth/policies/write-lock';
import type { EventEmitter, EventSubscriber } from '../../events';
import type { AppPasswordsService } from '../app-passwords';
import type { FilesService } from '../files';
import type { SharingService } from '../sharing';
import type { FoldersService, WorkspacesService } from '../spaces';
import type { Db, Dialect } from '../../db';
import { iso, type Clock } from '../../lib/time';
import type { BlobStore } from '../../adapters/blob-store';
import { createChunkedUploads } from './dav.chunked';
import { createChunkedRepository } from './dav.chunked.repository';
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
    dialect: Dialect;
    clock: Clock;
    appPasswords: AppPasswordsService;
    files: FilesService;
    folders: FoldersService;
    workspaces: WorkspacesService;
    sharing: SharingService;
    events: EventEmitter & EventSubscriber;
    maxUploadBytes: number;
    /** Where chunked uploads keep their chunks until they are assembled. */
    blobs: BlobStore;
  },
) {
  const tree = createDavTree(deps);
  const repo = createDavRepository(deps.db);
  // What is purged for good takes its locks and dead properties with it (trash emptied, the purge job, a workspace).
  deps.events.on('items.purged', 'dav', ({ fileIds, folderIds }) => repo.forget([...fileIds, ...folderIds]));
  const locks = createDavLocks({ ...deps, repo, tree });
  const methods = createDavMethods({
    ...deps,
    tree,
    extras: {
      locks,
      deadProps: (id) => repo.properties(id),
      deadPropsOf: (ids) => repo.propertiesOf(ids),
      anyDeadProps: () => repo.anyProperties(),
      proppatch: (request, reply, dav, node) => proppatch({ ...deps, repo }, request, reply, dav, node),
    },
  });
  const chunked = createChunkedUploads({ ...deps, repo: createChunkedRepository(deps.db, deps.dialect), tree, locks });
  await registerDavRoutes(app, { appPasswords: deps.appPasswords, methods, chunked });
  return { chunkedUploads: { sweep: () => chunked.sweep() } };
}

/**
 * The write-lock check every change of a file or folder in the app makes (`auth/policies/write-lock.ts` decides;
 * the locks are the WebDAV module's rows). Built before the spaces and files modules, which ask it.
 */
export const createDavWriteLocks = ({ db, clock }: { db: Db; clock: Clock }): WriteLocks => {
  const repo = createDavRepository(db);
  return {
    async requireUnlocked(actorId, target) {
      const now = clock.now();
      requireUnlocked(actorId, await repo.locksReaching(target, iso(now)), now);
    },
  };
};
