import type { FileKind, FolderSort, Space } from '@atrium/contracts';
import { ChevronRight, Eye } from 'lucide-react';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { usePreferences, useUpdatePreferences } from '../../../lib/queries/preferences';
import { useShareAction } from '../../../lib/share-action';
import { useUndoToast } from '../../../lib/trash';
import { VIEWER_OPENED_STATE, viewerHref } from '../../../lib/viewer-link';
import { rememberViewerList } from '../../../lib/viewer-list';
import {
  takenFileNames,
  useChangeBack,
  useCreateFolder,
  useDeleteFile,
  useDeleteFolder,
  useFolder,
  useRefreshFolders,
  useUpdateFile,
  useUpdateFolder,
} from '../api/spaces-api';
import { folderPath, mergePages, spaceRefOf, viewOnlyReason } from '../lib/browser-logic';
import { droppedFiles, pickedFiles, type PickedFile } from '../lib/dropped-files';
import { emptySelection, keepListed, toggleAll, toggleRow } from '../lib/selection';
import { BulkBar } from './bulk-bar';
import { EntryGrid } from './entry-grid';
import { EntryList, entryKey, type EntryTarget } from './entry-list';
import { MoveDialog } from './move-dialog';
import { NameDialog } from './name-dialog';
import { ConflictDialog } from './conflict-dialog';
import { UploadList } from './upload-list';
import { VersionsDialog } from './versions-dialog';
import { FileDetailsPanel } from './file-details-panel';
import { FolderDetailsPanel } from './folder-details-panel';
import { useStarToggle } from '../../../lib/stars';
import { useUploadQueue } from './use-upload-queue';
import { FolderToolbar } from './folder-toolbar';
import { showUndoToast } from '../../../lib/undo-toast';

export interface FileBrowserProps {
  /** The space shown (from GET /api/spaces). */
  space: Space;
  /** Every space of the caller (the move dialog's choices). */
  spaces: readonly Space[];
  /** The open folder; the space's root when absent. */
  folderId?: string | undefined;
  /** Entries per page ("Load more" fetches the next). */
  pageSize?: number;
}

type Dialog =
  | { kind: 'new-folder' }
  | { kind: 'rename' | 'move' | 'delete' | 'versions' | 'details'; target: EntryTarget }
  | { kind: 'move-many'; targets: EntryTarget[] }
  | { kind: 'conflict'; picked: PickedFile[]; names: string[] }
  | null;

/**
 * One file browser for every space: breadcrumbs, folders first, sort, "Load more", new folder, a row menu
 * (open, download, rename, move, share, delete), drag and drop or the Upload button with progress per file.
 * Viewers see no action that changes content in the menus, a "View only" chip with the server's reason, Upload
 * and New folder disabled, and a toast for a dropped file; the server decides every action anyway. Share opens the
 * app's one share dialog (lib/share-action.ts); where none is provided the action is hidden. `?select=<fileId>`
 * (a search result) selects that file's row and scrolls it into view (docs/PRODUCT.md#spaces-screens).
 */
export function FileBrowser({ space, spaces, folderId, pageSize }: FileBrowserProps) {
  const openId = folderId ?? space.rootFolderId;
  const ref = spaceRefOf(space);
  const reasonId = useId();
  const [sort, setSort] = useState<FolderSort>('name');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  const [kind, setKind] = useState<FileKind | ''>('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const stars = useStarToggle();
  const [dragging, setDragging] = useState(false);
  /** A name the open folder already has: the new folder dialog asks Keep both. */
  const [taken, setTaken] = useState<string | null>(null);
  const [params] = useSearchParams();
  const selectFile = params.get('select');
  const scrolledTo = useRef<string | null>(null);
  const [selection, setSelection] = useState(emptySelection);
  const inputRef = useRef<HTMLInputElement>(null);
  const listing = useFolder(openId, sort, order, pageSize, kind);
  const createFolder = useCreateFolder();
  const updateFolder = useUpdateFolder();
  const updateFile = useUpdateFile();
  const deleteFolder = useDeleteFolder();
  const deleteFile = useDeleteFile();
  const refresh = useRefreshFolders();
  const changeBack = useChangeBack();
  const undoToast = useUndoToast();
  const share = useShareAction();
  const navigate = useNavigate();
  const location = useLocation();
  const queue = useUploadQueue(openId, () => void refresh());
  const folderInputRef = useRef<HTMLInputElement>(null);
  // List or grid, remembered per user on the server (every browser shows the same).
  const { fileView } = usePreferences();
  const updatePreferences = useUpdatePreferences();

  const first = listing.data?.pages[0];
  const viewOnly = first ? viewOnlyReason(space, first) : null;
  const canWrite = first !== undefined && viewOnly === null;
  const close = () => setDialog(null);

  // A search result's file (`?select=`): its row is chosen as the address names it (set while rendering, React's
  // way of adjusting state to a prop), then scrolled to once listed, further pages loaded until it is.
  const [selectedFor, setSelectedFor] = useState<string | null>(null);
  if (selectFile && selectFile !== selectedFor) {
    setSelectedFor(selectFile);
    setSelection({ keys: new Set([`file:${selectFile}`]), anchor: `file:${selectFile}` });
  }
  const loadedFiles = listing.data?.pages.flatMap((p) => p.files.map((f) => f.id));
  const listed = selectFile !== null && loadedFiles?.includes(selectFile) === true;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  useEffect(() => {
    if (!selectFile || scrolledTo.current === selectFile) return;
    if (!listed) {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
      return;
    }
    scrolledTo.current = selectFile;
    const key = `file:${selectFile}`;
    requestAnimationFrame(() =>
      Array.from(document.querySelectorAll('[data-entry]'))
        .find((row) => row.getAttribute('data-entry') === key)
        ?.scrollIntoView({ block: 'center' }),
    );
  }, [selectFile, listed, hasNextPage, isFetchingNextPage, fetchNextPage]);

  /**
   * Names at the top of an upload that the folder already has: ask Replace or Keep both first. The loaded pages
   * answer when they hold the whole folder; otherwise the server does (a failed check uploads as Keep both).
   */
  const upload = async (picked: PickedFile[]) => {
    if (picked.length === 0) return;
    if (!canWrite) {
      showToast('info', viewOnly ?? 'You cannot upload here.');
      return;
    }
    const top = picked.filter((entry) => !entry.path.includes('/')).map((entry) => entry.path);
    const loaded = () =>
      new Set(listing.data?.pages.flatMap((p) => p.files.map((f) => f.fileName.toLowerCase())) ?? []);
    const complete = !listing.hasNextPage && kind === '';
    const taken =
      complete || top.length === 0 ? loaded() : await takenFileNames(openId, top).catch(() => new Set<string>());
    const names = top.filter((name) => taken.has(name.toLowerCase()));
    if (names.length > 0) setDialog({ kind: 'conflict', picked, names });
    else void queue.add(picked);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void droppedFiles(event.dataTransfer).then(upload);
  };
  const onDragOver = (event: DragEvent) => {
    if (!Array.from(event.dataTransfer.types).includes('Files')) return;
    // Always taken, so a file dropped by a viewer is answered (a toast) instead of the browser opening it.
    event.preventDefault();
    setDragging(true);
  };

  if (listing.isPending) return <Spinner label="Loading folder…" />;
  if (listing.isError) {
    return (
      <Alert className="p-4">
        {isApiError(listing.error) && listing.error.status === 404
          ? 'This folder does not exist or you have no access to it.'
          : listing.error.message}
      </Alert>
    );
  }

  const page = listing.data.pages[0];
  if (!page) return null;
  const { folders, files } = mergePages(listing.data.pages);
  // The viewer's Previous / Next follow this folder as listed here (its sort and filter).
  rememberViewerList(files.map((file) => ({ id: file.id, name: file.fileName })));
  // Rows in list order, for checkboxes and Shift ranges; a choice never names a row no longer listed.
  const rowOrder = [
    ...folders.map((f) => entryKey({ kind: 'folder', id: f.id, name: f.name })),
    ...files.map((f) => entryKey({ kind: 'file', id: f.id, name: f.fileName })),
  ];
  const chosen = keepListed(selection, rowOrder);
  const path = page.path;
  const title = path.length <= 1 ? space.name : page.name;
  const deleting = dialog?.kind === 'delete' ? dialog.target : null;
  const EntryView = fileView === 'grid' ? EntryGrid : EntryList;

  return (
    <div
      className="relative min-w-0 space-y-4"
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="file-browser"
    >
      <nav aria-label="Breadcrumbs" className="text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-slate-600">
          {path.map((crumb, index) => (
            <li key={crumb.id} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight className="size-3 shrink-0 text-slate-400" aria-hidden="true" />}
              {index === path.length - 1 ? (
                <span aria-current="page" className="truncate font-medium text-slate-900">
                  {index === 0 ? space.name : crumb.name}
                </span>
              ) : (
                <Link
                  to={folderPath(ref, index === 0 ? null : crumb.id)}
                  className="truncate rounded text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {index === 0 ? space.name : crumb.name}
                </Link>
              )}
            </li>
          ))}
        </ol>
      </nav>

      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="min-w-0 truncate text-2xl font-semibold tracking-tight text-slate-900" title={title}>
            {title}
          </h1>
          {viewOnly && (
            <span className="inline-flex shrink-0 items-center gap-1 rounded-full border border-slate-300 bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
              <Eye className="size-3.5" aria-hidden="true" /> View only
            </span>
          )}
        </div>
        <FolderToolbar
          view={fileView}
          onView={(next) =>
            updatePreferences.mutate(
              { fileView: next },
              { onError: (error) => showToast('error', `Could not save the view: ${error.message}`) },
            )
          }
          sort={sort}
          onSort={setSort}
          order={order}
          onOrder={setOrder}
          kind={kind}
          onKind={setKind}
          viewOnly={viewOnly}
          reasonId={reasonId}
          onNewFolder={() => setDialog({ kind: 'new-folder' })}
          onUpload={() => inputRef.current?.click()}
          onUploadFolder={() => folderInputRef.current?.click()}
        />
        {canWrite && (
          <>
            <input
              ref={inputRef}
              type="file"
              multiple
              hidden
              aria-label="Files to upload"
              data-testid="upload-input"
              onChange={(event) => {
                void upload(pickedFiles(event.target.files ?? []));
                event.target.value = '';
              }}
            />
            <input
              ref={folderInputRef}
              type="file"
              multiple
              hidden
              aria-label="Folder to upload"
              data-testid="upload-folder-input"
              // A whole folder: every file with its path below it (the folders are created first).
              {...{ webkitdirectory: '' }}
              onChange={(event) => {
                void upload(pickedFiles(event.target.files ?? []));
                event.target.value = '';
              }}
            />
          </>
        )}
      </div>
      {viewOnly && (
        <p id={reasonId} className="-mt-2 text-sm text-slate-600">
          {viewOnly}
        </p>
      )}

      <UploadList items={queue.items} onClear={queue.clear} onCancel={queue.cancel} onRetry={queue.retry} />
      <BulkBar
        keys={chosen.keys}
        canWrite={canWrite}
        onClear={() => setSelection(emptySelection)}
        onMove={() =>
          setDialog({
            kind: 'move-many',
            targets: [
              ...folders.map((f): EntryTarget => ({ kind: 'folder', id: f.id, name: f.name })),
              ...files.map((f): EntryTarget => ({ kind: 'file', id: f.id, name: f.fileName })),
            ].filter((target) => chosen.keys.has(entryKey(target))),
          })
        }
      />

      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
        {folders.length === 0 && files.length === 0 ? (
          <div className="p-8 text-center">
            <p className="font-medium text-slate-800">
              {kind === '' ? 'This folder is empty.' : 'No files of this type in this folder.'}
            </p>
            {canWrite && <p className="mt-1 text-sm text-slate-600">Drop files here, or use Upload or New folder.</p>}
          </div>
        ) : (
          <EntryView
            space={ref}
            folders={folders}
            files={files}
            selection={{
              keys: chosen.keys,
              onToggle: (key, shift) => setSelection(toggleRow(chosen, rowOrder, key, shift)),
              onToggleAll: () => setSelection(toggleAll(chosen, rowOrder)),
            }}
            actions={{
              canWrite,
              canShare: Boolean(share) && canWrite,
              onRename: (target) => setDialog({ kind: 'rename', target }),
              onMove: (target) => setDialog({ kind: 'move', target }),
              onShare: (target) => share?.(target),
              onDelete: (target) => setDialog({ kind: 'delete', target }),
              onVersions: (target) => setDialog({ kind: 'versions', target }),
              onDetails: (target) => setDialog({ kind: 'details', target }),
              onStar: (target) => stars.toggle(target.kind, target.id),
              isStarred: (target) => stars.isStarred(target.kind, target.id),
              onOpen: (target) =>
                void navigate(viewerHref(target.id, location.pathname, location.search), {
                  state: VIEWER_OPENED_STATE,
                }),
            }}
          />
        )}
      </div>

      <LoadMore query={listing} centred />

      {dragging && (
        <div
          aria-hidden="true"
          className={`pointer-events-none absolute inset-0 flex items-center justify-center rounded-xl border-2 border-dashed p-4 text-center text-sm font-semibold ${
            canWrite
              ? 'border-brand-600 bg-brand-50/80 text-brand-700'
              : 'border-slate-400 bg-slate-50/90 text-slate-700'
          }`}
        >
          {canWrite ? `Drop files to upload into ${title}` : viewOnly}
        </div>
      )}

      {dialog?.kind === 'new-folder' && (
        <NameDialog
          title="New folder"
          label="Folder name"
          submitLabel="Create"
          busy={createFolder.isPending}
          error={taken ? null : errorText(createFolder.error)}
          onClose={() => {
            createFolder.reset();
            setTaken(null);
            close();
          }}
          // A taken name is asked about (Keep both), never silently numbered (docs/PRODUCT.md#spaces-screens).
          onSubmit={(name) =>
            createFolder.mutate(
              { name, parentId: openId, onConflict: 'fail' },
              {
                onSuccess: () => {
                  setTaken(null);
                  close();
                },
                onError: (error) => setTaken(isApiError(error) && error.code === 'NAME_TAKEN' ? name : null),
              },
            )
          }
        >
          {taken && (
            <div
              role="alert"
              className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
            >
              <p>A folder named “{taken}” already exists here. Choose another name, or keep both.</p>
              <button
                type="button"
                disabled={createFolder.isPending}
                onClick={() =>
                  createFolder.mutate(
                    { name: taken, parentId: openId, onConflict: 'rename' },
                    {
                      onSuccess: (folder) => {
                        setTaken(null);
                        close();
                        showToast('success', `Created ${folder.name}.`);
                      },
                    },
                  )
                }
                className={`${buttonClass('secondary')} mt-2`}
              >
                Keep both
              </button>
            </div>
          )}
        </NameDialog>
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={`Rename ${dialog.target.kind}`}
          label="New name"
          submitLabel="Rename"
          initial={dialog.target.name}
          selectBase={dialog.target.kind === 'file'}
          busy={updateFile.isPending || updateFolder.isPending}
          error={errorText((dialog.target.kind === 'file' ? updateFile : updateFolder).error)}
          onClose={() => {
            updateFile.reset();
            updateFolder.reset();
            close();
          }}
          onSubmit={(name) => {
            const { target } = dialog;
            // The toast names the name the server gave (a taken folder name is numbered); Undo gives the old back.
            const renamed = (now: string) => {
              close();
              if (now === target.name) return;
              showUndoToast({
                id: `rename:${target.id}`,
                text: `Renamed ${target.name} to ${now}.`,
                undoLabel: `Undo: rename ${now} back to ${target.name}`,
                undo: () => changeBack([{ kind: target.kind, id: target.id, name: target.name }]),
                undone: `Renamed back to ${target.name}.`,
              });
            };
            if (target.kind === 'file') {
              updateFile.mutate({ id: target.id, fileName: name }, { onSuccess: (file) => renamed(file.fileName) });
            } else updateFolder.mutate({ id: target.id, name }, { onSuccess: (folder) => renamed(folder.name) });
          }}
        />
      )}
      {dialog?.kind === 'move' && (
        <MoveDialog targets={[dialog.target]} space={space} spaces={spaces} currentFolderId={openId} onClose={close} />
      )}
      {dialog?.kind === 'versions' && <VersionsDialog target={dialog.target} canWrite={canWrite} onClose={close} />}
      {dialog?.kind === 'details' &&
        (dialog.target.kind === 'folder' ? (
          <FolderDetailsPanel target={dialog.target} onClose={close} />
        ) : (
          <FileDetailsPanel target={dialog.target} onClose={close} />
        ))}
      {dialog?.kind === 'conflict' && (
        <ConflictDialog
          names={dialog.names}
          onCancel={close}
          onReplace={() => {
            close();
            void queue.add(dialog.picked, 'replace');
          }}
          onKeepBoth={() => {
            close();
            void queue.add(dialog.picked, 'rename');
          }}
        />
      )}
      {dialog?.kind === 'move-many' && (
        <MoveDialog
          targets={dialog.targets}
          space={space}
          spaces={spaces}
          currentFolderId={openId}
          // Moved rows leave the listing, and with it the selection (`keepListed`); a cancel keeps the choice.
          onClose={close}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.kind === 'folder' ? 'Delete folder?' : 'Delete file?'}
        message={
          deleting?.kind === 'folder'
            ? `“${deleting.name}” and everything inside it will be moved to the trash. You can restore it from Trash.`
            : `“${deleting?.name ?? ''}” will be moved to the trash. You can restore it from Trash.`
        }
        confirmLabel="Delete"
        busy={deleteFile.isPending || deleteFolder.isPending}
        onCancel={close}
        onConfirm={() => {
          if (!deleting) return;
          const options = {
            onSuccess: () => {
              undoToast(`Deleted ${deleting.name}.`, deleting);
              close();
            },
            onError: (error: Error) => showToast('error', error.message),
          };
          if (deleting.kind === 'file') deleteFile.mutate(deleting.id, options);
          else deleteFolder.mutate(deleting.id, options);
        }}
      />
    </div>
  );
}
