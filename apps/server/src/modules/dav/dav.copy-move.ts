import type { FastifyRequest } from 'fastify';
import type { UserActor } from '../../auth/actor';
import type { EventEmitter } from '../../events';
import { changeBy, requestContext } from '../../lib/http/request-context';
import type { FilesService } from '../files';
import type { FoldersService } from '../spaces';
import { fixedError, type DavTree, type FolderNode, type Node } from './dav.tree';

interface Ops {
  files: FilesService;
  folders: FoldersService;
  events: EventEmitter;
}

/** DELETE: a file or folder to the trash of its space, as the app's Delete (audited the same way). */
export async function removeNode(
  { files, folders, events }: Ops,
  request: FastifyRequest,
  actor: UserActor,
  node: Node,
) {
  if (
    node.kind === 'virtual' ||
    (node.kind === 'folder' && node.fixed) ||
    (node.kind === 'file' && node.folderId === null)
  ) {
    throw fixedError();
  }
  if (node.kind === 'folder') {
    await folders.remove(actor, node.id, requestContext(request));
    return;
  }
  const removed = await files.remove(actor, node.id);
  await events.emit('file.deleted', changeBy(request, actor, { target: `file:${removed.id}` }));
}

/** MOVE: a rename and/or a move into folder `parent` under `name` (the app's rename and move). */
export async function moveNode(
  { files, folders }: Ops,
  request: FastifyRequest,
  actor: UserActor,
  node: Node,
  parent: FolderNode,
  name: string,
) {
  if (
    node.kind === 'virtual' ||
    (node.kind === 'folder' && node.fixed) ||
    (node.kind === 'file' && node.folderId === null)
  ) {
    throw fixedError();
  }
  if (node.kind === 'file') {
    await files.update(actor, node.id, { fileName: name, folderId: parent.id }, requestContext(request));
  } else {
    await folders.update(actor, node.id, { name, parentId: parent.id }, requestContext(request));
  }
}

/** COPY: a file's bytes stored again as a new file (quota, events: a new upload); a folder, with its content when deep. */
export async function copyNode(
  ops: Ops & { tree: DavTree },
  request: FastifyRequest,
  actor: UserActor,
  node: Node,
  parent: FolderNode,
  name: string,
  deep: boolean,
): Promise<void> {
  const { files, folders, tree } = ops;
  if (node.kind === 'virtual') throw fixedError();
  if (node.kind === 'file') {
    const file = await files.get(actor, node.id);
    const target = await folders.uploadTarget(actor, { folderId: parent.id });
    await files.ingest(target, {
      fileName: name,
      stream: await files.blobOf(file).open(),
      onConflict: 'fail',
      allowEmpty: true,
      context: { actor: actor.ownerKey, ...requestContext(request) },
    });
    return;
  }
  const created = await folders.create(actor, { name, parentId: parent.id, onConflict: 'fail' });
  if (!deep) return;
  const copy: FolderNode = {
    kind: 'folder',
    name: created.name,
    path: [...parent.path, created.name],
    id: created.id,
    createdAt: created.createdAt,
    updatedAt: created.createdAt,
    fixed: false,
  };
  const children: Node[] = [];
  for await (const child of tree.children(actor, node)) children.push(child);
  for (const child of children) await copyNode(ops, request, actor, child, copy, child.name, true);
}
