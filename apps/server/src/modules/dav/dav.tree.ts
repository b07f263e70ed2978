import type { FileRecord, FolderEntry, FolderListQuery } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { FilesService } from '../files';
import type { SharingService } from '../sharing';
import type { FoldersService, WorkspacesService } from '../spaces';

/** The top folders of the tree (docs/PRODUCT.md#webdav). */
export const PERSONAL = 'Personal';
export const WORKSPACES = 'Workspaces';
export const SHARED = 'Shared with me';

/** A collection with no folder behind it: the root, Workspaces/, Shared with me/ (read-only). */
export interface VirtualNode {
  kind: 'virtual';
  name: string;
  path: string[];
  which: 'root' | 'workspaces' | 'shared';
}
export interface FolderNode {
  kind: 'folder';
  name: string;
  path: string[];
  id: string;
  createdAt: string;
  updatedAt: string;
  /** A space's root (Personal/, Workspaces/<name>/) or a shared folder under Shared with me/: never moved or deleted. */
  fixed: boolean;
  /** The folders above it in the tree, when resolved from a path (locks on them reach it). */
  above?: string[];
}
export interface FileNode {
  kind: 'file';
  name: string;
  path: string[];
  id: string;
  size: number;
  contentType: string;
  uploadDate: string;
  /** The modification time its client declared (`X-OC-Mtime`); absent: `uploadDate`. */
  modifiedAt?: string | undefined;
  /** Its content's SHA-256 when the listing carried it (a folder's children); else looked up when asked for. */
  sha256?: string | undefined;
  /** Its folder; null for a file reached directly under Shared with me/. */
  folderId: string | null;
  /** The folders above it in the tree, when resolved from a path. */
  above?: string[];
}
/** A name that does not exist yet in an existing folder (PUT, MKCOL, COPY/MOVE targets). */
export interface MissingNode {
  kind: 'missing';
  name: string;
  path: string[];
  /** The folder it would go in; undefined when its parent is not a folder (or missing). */
  parent: FolderNode | undefined;
  /** The folders above it (its parent included), when resolved from a path. */
  above?: string[];
}
export type Node = VirtualNode | FolderNode | FileNode;

const LIST_LIMIT = 1000;
const query = (extra: Partial<FolderListQuery> = {}): FolderListQuery => ({
  limit: LIST_LIMIT,
  sort: 'name',
  order: 'asc',
  ...extra,
});

/**
 * The WebDAV tree of one person, resolved through the same services and policies as the web app: a folder is listed
 * only by `folders.list` (the folder policy's `read`), a file read by `files.get`; nothing unreadable is named.
 */
export function createDavTree(deps: {
  files: FilesService;
  folders: FoldersService;
  workspaces: WorkspacesService;
  sharing: SharingService;
}) {
  const { folders, workspaces, sharing } = deps;

  const folderNode = (entry: FolderEntry, path: string[], fixed = false): FolderNode => ({
    kind: 'folder',
    name: entry.name,
    path,
    id: entry.id,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    fixed,
  });
  const fileNode = (record: FileRecord & { sha256?: string }, path: string[], folderId: string | null): FileNode => ({
    kind: 'file',
    name: record.fileName,
    path,
    id: record.id,
    size: record.size,
    contentType: record.contentType,
    uploadDate: record.uploadDate,
    // Undefined when absent rather than spread in: every node of a listing gets the same shape, without two
    // throw-away objects each.
    modifiedAt: record.modifiedAt,
    sha256: record.sha256,
    folderId,
  });

  /** The top collections' children: the named space roots. */
  async function spaceRoots(actor: UserActor): Promise<{ personal: string; workspaces: Map<string, string> }> {
    const spaces = await workspaces.spaces(actor);
    const byName = new Map<string, string>();
    let personal = '';
    for (const space of spaces) {
      if (space.kind === 'personal') personal = space.rootFolderId;
      // Two workspaces of one name: the second is reached as "Name (2)".
      else {
        let name = space.name;
        for (let n = 2; byName.has(name); n += 1) name = `${space.name} (${n})`;
        byName.set(name, space.rootFolderId);
      }
    }
    return { personal, workspaces: byName };
  }

  async function rootFolder(actor: UserActor, id: string, name: string, path: string[]): Promise<FolderNode> {
    const listing = await folders.list(actor, id, query({ limit: 1 }));
    const now = new Date(0).toISOString();
    return {
      kind: 'folder',
      name,
      path,
      id: listing.id,
      createdAt: listing.createdAt ?? now,
      updatedAt: now,
      fixed: true,
    };
  }

  /** The child `name` of folder `parent` (exact name first, else the same name in another case), or undefined. */
  async function childOf(actor: UserActor, parent: FolderNode, name: string): Promise<Node | undefined> {
    if (name.includes('/')) return undefined;
    const listing = await folders.list(actor, parent.id, query({ names: name }));
    const path = [...parent.path, name];
    const folder = listing.folders.find((f) => f.name === name) ?? listing.folders[0];
    if (folder) return folderNode(folder, [...parent.path, folder.name]);
    const file = listing.files.find((f) => f.fileName === name) ?? listing.files[0];
    if (file) return fileNode(file, [...parent.path, file.fileName], parent.id);
    void path;
    return undefined;
  }

  /** What the segments name: a node, a missing name in a folder, or undefined when even its parent is unknown. */
  async function resolve(actor: UserActor, segments: string[]): Promise<Node | MissingNode> {
    if (segments.length === 0) return { kind: 'virtual', name: '', path: [], which: 'root' };
    const [top, second, ...rest] = segments as [string, ...string[]];
    let node: Node;
    let remaining: string[];
    if (top === PERSONAL) {
      const { personal } = await spaceRoots(actor);
      node = await rootFolder(actor, personal, PERSONAL, [PERSONAL]);
      remaining = second === undefined ? [] : [second, ...rest];
    } else if (top === WORKSPACES) {
      if (second === undefined) return { kind: 'virtual', name: WORKSPACES, path: [WORKSPACES], which: 'workspaces' };
      const id = (await spaceRoots(actor)).workspaces.get(second);
      if (id === undefined) return { kind: 'missing', name: second, path: [WORKSPACES, second], parent: undefined };
      node = await rootFolder(actor, id, second, [WORKSPACES, second]);
      remaining = rest;
    } else if (top === SHARED) {
      if (second === undefined) return { kind: 'virtual', name: SHARED, path: [SHARED], which: 'shared' };
      const item = (await sharedItems(actor)).find((shared) => shared.name === second);
      if (!item) return { kind: 'missing', name: second, path: [SHARED, second], parent: undefined };
      node = item;
      remaining = rest;
    } else {
      return { kind: 'missing', name: top, path: [top], parent: undefined };
    }
    const above: string[] = [];
    for (let i = 0; i < remaining.length; i += 1) {
      const name = remaining[i] as string;
      const parentPath: string[] = node.path;
      const child: Node | undefined = node.kind === 'folder' ? await childOf(actor, node, name) : undefined;
      if (!child) {
        const last = i === remaining.length - 1;
        return {
          kind: 'missing',
          name,
          path: [...parentPath, name],
          parent: last && node.kind === 'folder' ? (node as FolderNode) : undefined,
          above: node.kind === 'folder' ? [...above, node.id] : above,
        };
      }
      if (node.kind === 'folder') above.push(node.id);
      node = child;
    }
    return node.kind === 'virtual' ? node : { ...node, above };
  }

  /** The items of Shared with me, named as in the app (a name shared twice is reached as "Name (2)"). */
  async function sharedItems(actor: UserActor): Promise<Node[]> {
    const shared = await sharing.sharedWithMe(actor);
    const taken = new Set<string>();
    const unique = (name: string) => {
      let chosen = name;
      for (let n = 2; taken.has(chosen.toLowerCase()); n += 1) chosen = `${name} (${n})`;
      taken.add(chosen.toLowerCase());
      return chosen;
    };
    return [
      ...shared.folders.map((f) => {
        const name = unique(f.name);
        return { ...folderNode(f, [SHARED, name], true), name };
      }),
      ...shared.files.map((f) => {
        const name = unique(f.fileName);
        return { ...fileNode(f, [SHARED, name], null), name };
      }),
    ];
  }

  /** The children of a collection, a page at a time (a folder's pages as `folders.list` reads them). */
  async function* childPages(actor: UserActor, node: VirtualNode | FolderNode): AsyncGenerator<Node[]> {
    if (node.kind === 'virtual') {
      const now = new Date(0).toISOString();
      if (node.which === 'root') {
        const { personal } = await spaceRoots(actor);
        yield [
          {
            kind: 'folder',
            name: PERSONAL,
            path: [PERSONAL],
            id: personal,
            createdAt: now,
            updatedAt: now,
            fixed: true,
          },
          { kind: 'virtual', name: WORKSPACES, path: [WORKSPACES], which: 'workspaces' },
          { kind: 'virtual', name: SHARED, path: [SHARED], which: 'shared' },
        ];
      } else if (node.which === 'workspaces') {
        yield [...(await spaceRoots(actor)).workspaces].map(([name, id]): Node => ({
          kind: 'folder',
          name,
          path: [WORKSPACES, name],
          id,
          createdAt: now,
          updatedAt: now,
          fixed: true,
        }));
      } else {
        yield await sharedItems(actor);
      }
      return;
    }
    for await (const page of folders.pages(actor, node.id, query(), { checksums: true })) {
      const nodes: Node[] = page.folders.map((f) => folderNode(f, [...node.path, f.name]));
      for (const f of page.files) nodes.push(fileNode(f, [...node.path, f.fileName], node.id));
      yield nodes;
    }
  }

  /** The children of a collection (every page of a folder). */
  async function* children(actor: UserActor, node: VirtualNode | FolderNode): AsyncGenerator<Node> {
    for await (const page of childPages(actor, node)) yield* page;
  }

  return { resolve, children, childPages };
}

export type DavTree = ReturnType<typeof createDavTree>;

/** 403 for a change the tree itself does not allow (the top collections, space roots). */
export const fixedError = () =>
  new AppError('FORBIDDEN', 'This folder is part of the WebDAV tree and cannot be changed.');
