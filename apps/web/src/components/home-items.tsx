import type { HomeItem } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { folderHref } from '@atrium/contracts/pages';
import { FileIcon, Folder, FolderOpen } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { viewerHref } from '../lib/viewer-link';
import { StarButton } from './star-button';

const day = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The link that opens an item: a folder in the file browser, a file in the viewer over the current page. */
function useOpenHref(item: HomeItem): string {
  const location = useLocation();
  if (item.kind === 'folder') return folderHref(item.place.spaceId, item.id);
  return viewerHref(item.id, location.pathname, location.search);
}

function ItemRow({ item }: { item: HomeItem }) {
  const open = useOpenHref(item);
  const Icon = item.kind === 'folder' ? Folder : FileIcon;
  const folder = item.place.folderId;
  return (
    <li className="flex items-center gap-3 px-3 py-2 sm:px-4">
      <Icon aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
      <div className="min-w-0 flex-1">
        <Link to={open} className="block truncate font-medium text-slate-900 hover:underline">
          {item.name}
        </Link>
        <p className="truncate text-sm text-slate-600">
          {item.place.spaceName}
          {item.size !== null && ` · ${formatBytes(item.size)}`} · {day(item.updatedAt)}
        </p>
      </div>
      {item.kind === 'file' && folder !== null && (
        <Link
          to={folderHref(item.place.spaceId, folder)}
          className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline"
          aria-label={`Go to folder: ${item.name}`}
          title="Go to folder"
        >
          <FolderOpen aria-hidden="true" className="size-5 sm:hidden" />
          <span className="hidden sm:inline">Go to folder</span>
        </Link>
      )}
      <StarButton id={item.id} kind={item.kind} name={item.name} />
    </li>
  );
}

/**
 * A list of files and folders across spaces (docs/PRODUCT.md#starred-and-recent): each opens (a file in the viewer,
 * a folder in the file browser), says where it is, and can be starred.
 */
export function HomeItemList({ items, label }: { items: HomeItem[]; label: string }) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
      {items.map((item) => (
        <ItemRow key={`${item.kind}:${item.id}`} item={item} />
      ))}
    </ul>
  );
}
