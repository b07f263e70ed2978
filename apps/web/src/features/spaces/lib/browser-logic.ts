import type { FileRecord, FolderEntry, FolderListing, MemberRole, Space } from '@atrium/contracts';
import { folderHref, pageHref, PAGES } from '@atrium/contracts/pages';

/** The space a browser route names: the personal space, or a workspace by id. */
export type SpaceRef = { kind: 'personal' } | { kind: 'workspace'; id: string };

/** A folder of the space (its root without `folderId`). */
export const folderPath = (space: SpaceRef, folderId?: string | null): string =>
  folderHref(space.kind === 'personal' ? null : space.id, folderId);

/** The People screen of a space (docs/PRODUCT.md#people). */
export const peoplePath = (space: SpaceRef) =>
  space.kind === 'personal'
    ? pageHref(PAGES.personalPeople)
    : pageHref(PAGES.workspacePeople, { workspaceId: space.id });

export const membersPath = (workspaceId: string) => pageHref(PAGES.members, { workspaceId });

export const spaceRefOf = (space: Space): SpaceRef =>
  space.kind === 'personal' ? { kind: 'personal' } : { kind: 'workspace', id: space.id };

export const findSpace = (spaces: readonly Space[], ref: SpaceRef): Space | undefined =>
  spaces.find((space) => (ref.kind === 'personal' ? space.kind === 'personal' : space.id === ref.id));

/** The caller's role in a space: the personal space is theirs; a workspace's role comes from the server. */
export const roleIn = (space: Space): MemberRole => (space.kind === 'personal' ? 'owner' : space.role);

/** What the browser offers for a role: viewers read and download; editors and owners also change content. */
export const permissionsFor = (role: MemberRole) => ({ canWrite: role !== 'viewer', canManage: role === 'owner' });

/**
 * The role that applies to a listed folder: the space's role when the folder is in that space, else viewer
 * (the server decides every action anyway; the browser then simply offers none that change content).
 */
export function roleForListing(space: Space, listing: Pick<FolderListing, 'workspaceId'>): MemberRole {
  const inSpace = space.kind === 'personal' ? listing.workspaceId === null : listing.workspaceId === space.id;
  return inSpace ? roleIn(space) : 'viewer';
}

/** The server's words for a viewer (docs/PRODUCT.md#workspaces-and-folders), shown before anything is refused. */
export const VIEW_ONLY_WORKSPACE = 'You can only view this workspace. Ask one of its owners for editor access.';
export const VIEW_ONLY_FOLDER = 'You can only view this folder.';

/**
 * Why the browser offers no change in a listed folder, or null where the caller may change it: a viewer of the
 * workspace, or someone reaching the folder through a share that lets them only view it.
 */
export function viewOnlyReason(space: Space, listing: Pick<FolderListing, 'workspaceId'>): string | null {
  if (roleForListing(space, listing) !== 'viewer') return null;
  const inSpace = space.kind === 'personal' ? listing.workspaceId === null : listing.workspaceId === space.id;
  return inSpace && space.kind === 'workspace' ? VIEW_ONLY_WORKSPACE : VIEW_ONLY_FOLDER;
}

/** The part of a file name a rename selects first: all of it before the extension (`report.final.pdf` → 16). */
export function baseNameEnd(name: string): number {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? dot : name.length;
}

/** Every loaded page of a folder as one list: folders first (as the server pages them), no entry twice. */
export function mergePages(pages: readonly Pick<FolderListing, 'folders' | 'files'>[]): {
  folders: FolderEntry[];
  files: FileRecord[];
} {
  const seen = new Set<string>();
  const folders: FolderEntry[] = [];
  const files: FileRecord[] = [];
  for (const page of pages) {
    for (const folder of page.folders) {
      if (seen.has(`d:${folder.id}`)) continue;
      seen.add(`d:${folder.id}`);
      folders.push(folder);
    }
    for (const file of page.files) {
      if (seen.has(`f:${file.id}`)) continue;
      seen.add(`f:${file.id}`);
      files.push(file);
    }
  }
  return { folders, files };
}

// ---- Uploads in progress ----

export interface UploadItem {
  key: string;
  /** The file's path below the open folder (`Photos/2026/a.jpg`), or its name. */
  name: string;
  size: number;
  loaded: number;
  status: 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: string;
}

/** A path with its last part renamed: the name the server stored a file under (`Photos/brief (1).txt`). */
const withStoredName = (path: string, storedName: string) =>
  path.includes('/') ? `${path.slice(0, path.lastIndexOf('/'))}/${storedName}` : storedName;

export type UploadAction =
  | { type: 'add'; items: { key: string; name: string; size: number }[] }
  | { type: 'start'; key: string }
  | { type: 'progress'; key: string; loaded: number }
  /** `storedName`: the name the server answered (a taken name becomes `name (1).ext`). */
  | { type: 'done'; key: string; storedName?: string | undefined }
  | { type: 'failed'; key: string; error: string }
  | { type: 'cancelled'; key: string }
  | { type: 'retry'; key: string }
  | { type: 'clear' };

/** Still to finish: waiting or sending. */
export const isActive = (item: Pick<UploadItem, 'status'>) => item.status === 'queued' || item.status === 'uploading';

/**
 * The upload queue: one row per file with its progress; files wait (`queued`) until a slot is free, a failed or
 * cancelled one can be retried, "clear" drops the finished ones.
 */
export function uploadsReducer(state: UploadItem[], action: UploadAction): UploadItem[] {
  const update = (key: string, change: (item: UploadItem) => UploadItem) =>
    state.map((item) => (item.key === key ? change(item) : item));
  switch (action.type) {
    case 'add':
      return [...state, ...action.items.map((item) => ({ ...item, loaded: 0, status: 'queued' as const }))];
    case 'start':
      return update(action.key, (item) => ({ ...item, status: 'uploading' }));
    case 'progress':
      return update(action.key, (item) => ({ ...item, loaded: Math.min(action.loaded, item.size) }));
    case 'done':
      return update(action.key, (item) => ({
        ...item,
        ...(action.storedName ? { name: withStoredName(item.name, action.storedName) } : {}),
        loaded: item.size,
        status: 'done',
      }));
    case 'failed':
      // A refused file sent nothing that counts: its bar is empty, never full above a red message.
      return update(action.key, (item) => ({ ...item, loaded: 0, status: 'failed', error: action.error }));
    case 'cancelled':
      return update(action.key, (item) =>
        isActive(item) ? { ...item, status: 'cancelled', error: 'Upload cancelled.' } : item,
      );
    case 'retry':
      return update(action.key, ({ error: _error, ...item }) => ({ ...item, loaded: 0, status: 'queued' }));
    case 'clear':
      return state.filter(isActive);
  }
}

/** The whole queue: bytes sent of all files (failed and cancelled ones aside), and how many are done, failed and to go. */
export function uploadTotals(items: UploadItem[]) {
  const counted = items.filter((item) => item.status !== 'cancelled' && item.status !== 'failed');
  return {
    loaded: counted.reduce((sum, item) => sum + item.loaded, 0),
    size: counted.reduce((sum, item) => sum + item.size, 0),
    done: items.filter((item) => item.status === 'done').length,
    failed: items.filter((item) => item.status === 'failed').length,
    active: items.filter(isActive).length,
  };
}

/**
 * The folders a set of relative file paths needs (`a/b/c.txt` → `a`, `a/b`), parents before children, so they
 * can be created in order.
 */
export function foldersFor(paths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/').filter(Boolean);
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  return [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** Whole percent of an upload (100 for an empty file). */
export const percentOf = (item: Pick<UploadItem, 'loaded' | 'size'>) =>
  item.size === 0 ? 100 : Math.floor((item.loaded / item.size) * 100);

/** A file's type for the listing: its extension in capitals, else the MIME type's subtype. */
export function typeLabel(file: Pick<FileRecord, 'fileName' | 'contentType'>): string {
  const dot = file.fileName.lastIndexOf('.');
  if (dot > 0 && dot < file.fileName.length - 1) return file.fileName.slice(dot + 1).toUpperCase();
  return file.contentType.split('/')[1]?.split(';')[0] ?? file.contentType;
}
