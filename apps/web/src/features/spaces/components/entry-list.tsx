import type { FileRecord, FolderEntry } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import {
  Download,
  ExternalLink,
  FileText,
  Folder,
  FolderInput,
  History,
  Info,
  Pencil,
  Share2,
  Star,
  Trash2,
} from 'lucide-react';
import { Link } from 'react-router';
import { Menu, type MenuItem } from '../../../components/ui/menu';
import { TableHead, type TableColumn } from '../../../components/ui/table-head';
import { downloadUrl } from '../../../lib/file-urls';
import { VIEWER_OPENED_STATE, VIEWER_PARAM } from '../../../lib/viewer-link';
import { useWideScreen } from '../../../lib/use-wide-screen';
import { folderPath, typeLabel, type SpaceRef } from '../lib/browser-logic';

/** A file or folder a row action applies to (the share dialog's target too). */
export interface EntryTarget {
  kind: 'file' | 'folder';
  id: string;
  name: string;
}

export interface EntryActions {
  canWrite: boolean;
  canShare: boolean;
  onRename: (target: EntryTarget) => void;
  onMove: (target: EntryTarget) => void;
  onShare: (target: EntryTarget) => void;
  onDelete: (target: EntryTarget) => void;
  /** A file's versions (every reader may see them). */
  onVersions?: (target: EntryTarget) => void;
  /** A file's details panel (every reader may open it). */
  onDetails?: (target: EntryTarget) => void;
  /** Star or unstar (docs/PRODUCT.md#starred-and-recent); `isStarred` names the item "Remove star" when starred. */
  onStar?: (target: EntryTarget) => void;
  isStarred?: (target: EntryTarget) => boolean;
  /** Opens a file in the file viewer (docs/PRODUCT.md#file-viewer); without it, "Open" follows the viewer's address. */
  onOpen?: (target: EntryTarget) => void;
}

/** Checkboxes per row (bulk actions): which rows are chosen, and what a click does (Shift: a range). */
export interface EntrySelection {
  keys: ReadonlySet<string>;
  onToggle: (key: string, shift: boolean) => void;
  onToggleAll: () => void;
}

export interface EntryListProps {
  space: SpaceRef;
  folders: FolderEntry[];
  files: FileRecord[];
  actions: EntryActions;
  selection?: EntrySelection | undefined;
}

/** A row's selection key. */
export const entryKey = (target: EntryTarget) => `${target.kind}:${target.id}`;

export function RowCheckbox({ row, selection }: { row: Row; selection: EntrySelection }) {
  const key = entryKey(row.target);
  return (
    <input
      type="checkbox"
      aria-label={`Select ${row.target.name}`}
      checked={selection.keys.has(key)}
      onChange={() => undefined}
      onClick={(event) => selection.onToggle(key, event.shiftKey)}
      className="size-4 shrink-0 cursor-pointer rounded border-slate-400 accent-brand-600"
    />
  );
}

const formatDate = (iso: string) => new Date(iso).toLocaleString();

function menuItems(target: EntryTarget, actions: EntryActions, open: MenuItem): MenuItem[] {
  const items: MenuItem[] = [open];
  if (target.kind === 'file') {
    items.push({ label: 'Download', icon: Download, href: downloadUrl(target.id), download: target.name });
    const { onVersions } = actions;
    if (onVersions) items.push({ label: 'Versions', icon: History, onSelect: () => onVersions(target) });
    const { onDetails } = actions;
    if (onDetails) items.push({ label: 'Details', icon: Info, onSelect: () => onDetails(target) });
  }
  // A folder's details: its activity (docs/PRODUCT.md#activity).
  if (target.kind === 'folder' && actions.onDetails) {
    const { onDetails } = actions;
    items.push({ label: 'Details', icon: Info, onSelect: () => onDetails(target) });
  }
  const { onStar } = actions;
  if (onStar) {
    const starred = actions.isStarred?.(target) ?? false;
    items.push({ label: starred ? 'Remove star' : 'Star', icon: Star, onSelect: () => onStar(target) });
  }
  if (actions.canWrite) {
    items.push({ label: 'Rename', icon: Pencil, onSelect: () => actions.onRename(target) });
    items.push({ label: 'Move', icon: FolderInput, onSelect: () => actions.onMove(target) });
  }
  if (actions.canShare) items.push({ label: 'Share', icon: Share2, onSelect: () => actions.onShare(target) });
  if (actions.canWrite) {
    items.push({ label: 'Delete', icon: Trash2, danger: true, onSelect: () => actions.onDelete(target) });
  }
  return items;
}

/** One entry as both views show it. */
export interface Row {
  target: EntryTarget;
  /** A file's content type and upload date (the grid's thumbnail); absent for folders. */
  file?: { contentType: string; uploadDate: string };
  href: string;
  newTab: boolean;
  size: string;
  type: string;
  date: string;
  items: MenuItem[];
}

export function rowsOf({ space, folders, files, actions }: Omit<EntryListProps, 'selection'>): Row[] {
  return [
    ...folders.map((folder): Row => {
      const target: EntryTarget = { kind: 'folder', id: folder.id, name: folder.name };
      const href = folderPath(space, folder.id);
      return {
        target,
        href,
        newTab: false,
        size: '—',
        type: 'Folder',
        date: formatDate(folder.updatedAt),
        items: menuItems(target, actions, { label: 'Open', icon: ExternalLink, href }),
      };
    }),
    ...files.map((file): Row => {
      const target: EntryTarget = { kind: 'file', id: file.id, name: file.fileName };
      // The file viewer over this folder (`?file=<id>`, docs/PRODUCT.md#file-viewer).
      const href = `?${VIEWER_PARAM}=${encodeURIComponent(file.id)}`;
      const open: MenuItem = actions.onOpen
        ? { label: 'Open', icon: ExternalLink, onSelect: () => actions.onOpen?.(target) }
        : { label: 'Open', icon: ExternalLink, href };
      return {
        target,
        file: { contentType: file.contentType, uploadDate: file.uploadDate },
        href,
        newTab: false,
        size: formatBytes(file.size),
        type: typeLabel(file),
        date: formatDate(file.uploadDate),
        items: menuItems(target, actions, open),
      };
    }),
  ];
}

function EntryName({ row }: { row: Row }) {
  const Icon = row.target.kind === 'folder' ? Folder : FileText;
  const className =
    'flex min-w-0 items-center gap-2 rounded font-medium text-slate-900 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';
  const content = (
    <>
      <Icon
        className={`size-4 shrink-0 ${row.target.kind === 'folder' ? 'text-brand-600' : 'text-slate-500'}`}
        aria-hidden="true"
      />
      <span className="truncate" title={row.target.name}>
        {row.target.name}
      </span>
    </>
  );
  return row.newTab ? (
    <a href={row.href} target="_blank" rel="noopener" className={className}>
      {content}
    </a>
  ) : (
    <Link to={row.href} state={row.target.kind === 'file' ? VIEWER_OPENED_STATE : undefined} className={className}>
      {content}
    </Link>
  );
}

export const menuLabel = (row: Row) => `Actions for ${row.target.name}`;

const COLUMNS: TableColumn[] = [
  { label: 'Name', className: 'px-3 py-2' },
  { label: 'Size', className: 'w-24 px-3 py-2' },
  { label: 'Type', className: 'hidden w-24 px-3 py-2 lg:table-cell' },
  { label: 'Modified', className: 'w-48 px-3 py-2' },
];

/** The folder's entries: a table from 640 px, one card per entry below (nothing scrolls sideways). */
export function EntryList(props: EntryListProps) {
  const wide = useWideScreen();
  const rows = rowsOf(props);
  const { selection } = props;
  const allChosen = rows.length > 0 && rows.every((row) => selection?.keys.has(entryKey(row.target)));
  if (!wide) {
    return (
      <ul aria-label="Folder contents" className="divide-y divide-slate-100">
        {rows.map((row) => (
          <li
            key={`${row.target.kind}:${row.target.id}`}
            data-entry={entryKey(row.target)}
            className={`flex scroll-mt-24 items-center gap-2 px-2 py-2 ${selection?.keys.has(entryKey(row.target)) ? 'bg-brand-50' : ''}`}
          >
            {selection && <RowCheckbox row={row} selection={selection} />}
            <div className="min-w-0 flex-1">
              <EntryName row={row} />
              <p className="mt-0.5 truncate pl-6 text-xs text-slate-600">
                {row.target.kind === 'folder' ? 'Folder' : `${row.size} · ${row.type}`} · {row.date}
              </p>
            </div>
            <Menu label={menuLabel(row)} items={row.items} contextArea="li" />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <table className="w-full table-fixed text-left text-sm">
      <caption className="sr-only">Folder contents</caption>
      <TableHead
        columns={COLUMNS}
        leading={
          selection && (
            <th scope="col" className="w-10 px-3 py-2">
              <input
                type="checkbox"
                aria-label="Select all"
                checked={allChosen}
                onChange={selection.onToggleAll}
                className="size-4 cursor-pointer rounded border-slate-400 accent-brand-600"
              />
            </th>
          )
        }
      />
      <tbody>
        {rows.map((row) => (
          <tr
            key={`${row.target.kind}:${row.target.id}`}
            data-entry={entryKey(row.target)}
            className={`scroll-mt-24 border-b border-slate-100 last:border-0 ${selection?.keys.has(entryKey(row.target)) ? 'bg-brand-50' : ''}`}
          >
            {selection && (
              <td className="px-3 py-2">
                <RowCheckbox row={row} selection={selection} />
              </td>
            )}
            <td className="px-3 py-2">
              <EntryName row={row} />
            </td>
            <td className="px-3 py-2 whitespace-nowrap text-slate-600">{row.size}</td>
            <td className="hidden truncate px-3 py-2 text-slate-600 lg:table-cell">{row.type}</td>
            <td className="px-3 py-2 whitespace-nowrap text-slate-600">{row.date}</td>
            <td className="px-1 py-1 text-right">
              <Menu label={menuLabel(row)} items={row.items} contextArea="tr" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
