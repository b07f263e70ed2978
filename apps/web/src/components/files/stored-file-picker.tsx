import type { FileRecord, MemberRole, Space } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { folderHref } from '@atrium/contracts/pages';
import { useQuery } from '@tanstack/react-query';
import { Building2, ChevronRight, FileIcon, Folder, Share2, User } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { errorText } from '../../lib/api-error';
import {
  FOLDER_CHOICES_LIMIT,
  folderChoicesQueryOptions,
  sharedWithMeQueryOptions,
  spacesQueryOptions,
} from '../../lib/queries/spaces';
import { Alert } from '../ui/alert';
import { buttonClass } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Spinner } from '../ui/spinner';

/** The folder a "choose folder" picker ends on, with where the file browser shows it. */
export interface ChosenFolder {
  id: string;
  /** The folder's name (the space's name for a space's top folder). */
  name: string;
  /** The file browser's route for the folder. */
  href: string;
}

interface CommonProps {
  /** The dialog's title. */
  title: string;
  onClose: () => void;
}

export type StoredFilePickerProps = CommonProps &
  (
    | {
        mode: 'file';
        /** Which stored files the caller's screen can use; the others are not listed. */
        accept: (file: FileRecord) => boolean;
        /** What `accept` lets through, for the texts ("WAV audio files"). */
        acceptLabel: string;
        onPick: (file: FileRecord) => void;
      }
    | {
        mode: 'folder';
        /** The confirm button's label ("Save here"). */
        confirmLabel: string;
        onChoose: (folder: ChosenFolder) => void;
      }
  );

/** Where the picker is: the list of places, or a folder reached from a space or from "Shared with me". */
type Place = { kind: 'space'; space: Space } | { kind: 'shared' };
interface Crumb {
  id: string;
  name: string;
}
interface Location {
  place: Place | null;
  /** Folders opened inside the place, outermost first (a space's top folder is the first). */
  trail: Crumb[];
  /** The caller's role where they are (a space's role, or a shared folder's). */
  role: MemberRole;
}

interface Row {
  key: string;
  kind: 'place' | 'folder' | 'file';
  label: string;
  detail?: string | undefined;
  icon: ReactNode;
  activate: () => void;
}

const TOP: Location = { place: null, trail: [], role: 'viewer' };
const iconClass = 'size-4 shrink-0';

/** The file browser's route for a folder: a workspace's own, else the personal route (which reads shares too). */
const browserHref = (place: Place | null, folderId: string) =>
  folderHref(place?.kind === 'space' && place.space.kind === 'workspace' ? place.space.id : null, folderId);

const placeName = (place: Place) => (place.kind === 'shared' ? 'Shared with me' : place.space.name);

const fileDetail = (file: FileRecord) =>
  `${formatBytes(file.size)} · ${new Date(file.uploadDate).toLocaleDateString()}`;

/**
 * The stored-file picker (UI kit): walk the caller's places — their own space, each workspace, what others shared
 * with them — and their folders, with breadcrumbs. `mode: 'file'` lists the files `accept` lets through and picks
 * one; `mode: 'folder'` chooses the open folder (not where the caller may only view). Arrow keys, Home and End move
 * through the list, Enter opens or picks, Backspace goes up a level.
 */
export function StoredFilePicker(props: StoredFilePickerProps) {
  const [location, setLocation] = useState<Location>(TOP);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  /** Counts moves to another level (opening is the first); the effect below moves focus into the new list once per move. */
  const [moves, setMoves] = useState(1);
  const focusedMove = useRef(0);
  const spaces = useQuery(spacesQueryOptions());
  const shared = useQuery({
    ...sharedWithMeQueryOptions(),
    enabled: location.place?.kind === 'shared' || !location.place,
  });
  const folderId = location.trail.at(-1)?.id ?? null;
  const folder = useQuery(folderChoicesQueryOptions(folderId));

  const go = (next: Location) => {
    setLocation(next);
    setActive(0);
    setMoves((count) => count + 1);
  };
  const openFolder = (crumb: Crumb, role: MemberRole = location.role, place = location.place) =>
    go({ place, trail: [...location.trail, crumb], role });
  const up = () => {
    if (!location.place) return;
    if (location.trail.length > (location.place.kind === 'space' ? 1 : 0))
      go({ ...location, trail: location.trail.slice(0, -1) });
    else go(TOP);
  };

  // The rows where the caller is: places at the top, a folder's subfolders (and files), or the shared items.
  let rows: Row[] = [];
  let hidden = 0;
  let loading = false;
  let failure: unknown = null;
  let truncated = false;
  const acceptFile = props.mode === 'file' ? props.accept : () => false;
  const fileRow = (file: FileRecord): Row => ({
    key: `file:${file.id}`,
    kind: 'file',
    label: file.fileName,
    detail: fileDetail(file),
    icon: <FileIcon className={`${iconClass} text-slate-500`} aria-hidden="true" />,
    activate: () => {
      if (props.mode === 'file') props.onPick(file);
    },
  });
  if (!location.place) {
    loading = spaces.isPending;
    failure = spaces.error;
    rows = (spaces.data ?? []).map((space) => ({
      key: `space:${space.rootFolderId}`,
      kind: 'place',
      label: space.name,
      detail:
        space.kind === 'personal' ? 'Your own files' : space.role === 'viewer' ? 'Workspace · view only' : 'Workspace',
      icon:
        space.kind === 'personal' ? (
          <User className={`${iconClass} text-brand-600`} aria-hidden="true" />
        ) : (
          <Building2 className={`${iconClass} text-brand-600`} aria-hidden="true" />
        ),
      activate: () =>
        go({
          place: { kind: 'space', space },
          trail: [{ id: space.rootFolderId, name: space.name }],
          role: space.kind === 'personal' ? 'owner' : space.role,
        }),
    }));
    if (spaces.data)
      rows.push({
        key: 'shared',
        kind: 'place',
        label: 'Shared with me',
        detail: 'What others shared with you',
        icon: <Share2 className={`${iconClass} text-brand-600`} aria-hidden="true" />,
        activate: () => go({ place: { kind: 'shared' }, trail: [], role: 'viewer' }),
      });
  } else if (location.place.kind === 'shared' && location.trail.length === 0) {
    loading = shared.isPending;
    failure = shared.error;
    const items = shared.data ?? { folders: [], files: [] };
    rows = items.folders.map((entry) => ({
      key: `folder:${entry.id}`,
      kind: 'folder' as const,
      label: entry.name,
      detail: entry.role === 'viewer' ? 'Shared folder · view only' : 'Shared folder',
      icon: <Folder className={`${iconClass} text-brand-600`} aria-hidden="true" />,
      activate: () => openFolder({ id: entry.id, name: entry.name }, entry.role),
    }));
    if (props.mode === 'file') {
      const files = items.files.filter(acceptFile);
      hidden = items.files.length - files.length;
      rows.push(...files.map(fileRow));
    }
  } else {
    loading = folder.isPending;
    failure = folder.error;
    const listing = folder.data;
    truncated = Boolean(listing?.nextCursor);
    rows = (listing?.folders ?? []).map((entry) => ({
      key: `folder:${entry.id}`,
      kind: 'folder' as const,
      label: entry.name,
      icon: <Folder className={`${iconClass} text-brand-600`} aria-hidden="true" />,
      activate: () => openFolder({ id: entry.id, name: entry.name }),
    }));
    if (props.mode === 'file' && listing) {
      const files = listing.files.filter(acceptFile);
      hidden = listing.files.length - files.length;
      rows.push(...files.map(fileRow));
    }
  }

  // After moving to another level, keyboard focus follows into the new list (or stays on the dialog's title bar).
  useEffect(() => {
    if (moves === focusedMove.current || loading) return;
    focusedMove.current = moves;
    // An empty level: the breadcrumb naming it takes focus (the button that led here is gone).
    (
      listRef.current?.querySelector<HTMLElement>('[data-row]') ??
      document.querySelector<HTMLElement>('[data-picker-here]')
    )?.focus();
  }, [moves, loading]);

  const focusRow = (index: number) => {
    const buttons = listRef.current?.querySelectorAll<HTMLElement>('[data-row]');
    if (!buttons?.length) return;
    const next = Math.max(0, Math.min(index, buttons.length - 1));
    setActive(next);
    buttons[next]?.focus();
  };
  const onListKey = (event: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusRow(active + 1),
      ArrowUp: () => focusRow(active - 1),
      Home: () => focusRow(0),
      End: () => focusRow(rows.length - 1),
      Backspace: up,
      ArrowLeft: up,
    };
    const handler = keys[event.key];
    if (!handler) return;
    event.preventDefault();
    handler();
  };

  const crumbs: { key: string; label: string; to: Location }[] = [{ key: 'top', label: 'All places', to: TOP }];
  if (location.place) {
    const place = location.place;
    if (place.kind === 'shared')
      crumbs.push({ key: 'shared', label: 'Shared with me', to: { ...location, trail: [] } });
    location.trail.forEach((crumb, index) => {
      // A space's top folder is named after the space; the shared place's folders keep the role they were opened with.
      crumbs.push({
        key: crumb.id,
        label: index === 0 && place.kind === 'space' ? placeName(place) : crumb.name,
        to: { ...location, trail: location.trail.slice(0, index + 1) },
      });
    });
  }

  const inFolder = folderId !== null;
  const canWrite = location.role !== 'viewer';
  const here = location.trail.at(-1);
  const emptyText = !location.place
    ? 'You have no spaces yet.'
    : location.place.kind === 'shared' && !inFolder
      ? props.mode === 'file'
        ? `No folders or ${props.acceptLabel} have been shared with you.`
        : 'No folders have been shared with you.'
      : props.mode === 'file'
        ? `No ${props.acceptLabel} or folders here.`
        : 'No folders inside. Save here, or open another place.';

  const footer =
    props.mode === 'folder' ? (
      <>
        <button type="button" onClick={props.onClose} className={buttonClass('secondary')}>
          Cancel
        </button>
        <button
          type="button"
          disabled={!inFolder || !canWrite || !folder.data}
          onClick={() => {
            if (here && location.place)
              props.onChoose({
                id: here.id,
                name:
                  location.trail.length === 1 && location.place.kind === 'space'
                    ? placeName(location.place)
                    : here.name,
                href: browserHref(location.place, here.id),
              });
          }}
          className={buttonClass('primary')}
        >
          {props.confirmLabel}
        </button>
      </>
    ) : (
      <button type="button" onClick={props.onClose} className={buttonClass('secondary')}>
        Cancel
      </button>
    );

  return (
    <Dialog
      open
      title={props.title}
      description={
        props.mode === 'file'
          ? `Open a space or folder, then choose one of your ${props.acceptLabel}.`
          : 'Open the folder to save into, then choose “' + props.confirmLabel + '”.'
      }
      onClose={props.onClose}
      footer={footer}
      variant="sheet"
    >
      {/* Keys work from the list and the breadcrumbs (an empty level's breadcrumb has focus). */}
      <div onKeyDown={onListKey}>
        <nav aria-label="Location" className="mb-3 text-sm">
          <ol className="flex flex-wrap items-center gap-1">
            {crumbs.map((crumb, index) => (
              <li key={crumb.key} className="flex min-w-0 items-center gap-1">
                {index > 0 && <ChevronRight className="size-3 shrink-0 text-slate-400" aria-hidden="true" />}
                {index === crumbs.length - 1 ? (
                  <span
                    aria-current="location"
                    data-picker-here
                    tabIndex={-1}
                    className="truncate rounded font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    {crumb.label}
                  </span>
                ) : (
                  <button
                    type="button"
                    onClick={() => go(crumb.to)}
                    className="truncate rounded text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    {crumb.label}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
        {loading ? (
          <Spinner label="Loading…" />
        ) : failure ? (
          <Alert>{errorText(failure) ?? 'This place could not be loaded. Please try again.'}</Alert>
        ) : (
          <>
            <ul
              ref={listRef}
              aria-label={location.place ? `Content of ${crumbs.at(-1)?.label ?? ''}` : 'Places'}
              className="max-h-[50vh] divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 sm:max-h-80"
            >
              {rows.length === 0 && <li className="px-3 py-6 text-center text-sm text-slate-600">{emptyText}</li>}
              {rows.map((row, index) => (
                <li key={row.key}>
                  <button
                    type="button"
                    data-row
                    tabIndex={index === Math.min(active, rows.length - 1) ? 0 : -1}
                    onFocus={() => setActive(index)}
                    onClick={row.activate}
                    aria-label={
                      row.kind === 'file'
                        ? `Choose ${row.label}`
                        : row.kind === 'folder'
                          ? `Open folder ${row.label}`
                          : `Open ${row.label}`
                    }
                    className="flex w-full min-w-0 items-center gap-3 px-3 py-2.5 text-left text-sm hover:bg-slate-50 focus-visible:bg-brand-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
                  >
                    {row.icon}
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-slate-900">{row.label}</span>
                      {row.detail && <span className="block truncate text-xs text-slate-500">{row.detail}</span>}
                    </span>
                    {row.kind !== 'file' && (
                      <ChevronRight className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                    )}
                  </button>
                </li>
              ))}
            </ul>
            {hidden > 0 && props.mode === 'file' && (
              <p className="mt-2 text-xs text-slate-500">
                {hidden === 1 ? '1 other file here is' : `${hidden} other files here are`} not {props.acceptLabel}.
              </p>
            )}
            {truncated && (
              <p className="mt-2 text-xs text-slate-500">
                Showing the first {FOLDER_CHOICES_LIMIT} entries of this folder, by name.
              </p>
            )}
            {props.mode === 'folder' && inFolder && !canWrite && (
              <p role="note" className="mt-3 text-sm text-amber-800">
                You can view this folder but not add files to it. Choose a folder you can edit.
              </p>
            )}
          </>
        )}
      </div>
    </Dialog>
  );
}
