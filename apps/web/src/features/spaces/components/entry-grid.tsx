import { fileKindOf, type FileKind } from '@atrium/contracts';
import { ALL_THUMBNAIL_TYPES, PAGE_THUMBNAIL_TYPES } from '@atrium/contracts/texts';
import { File, FileAudio, FileImage, FileText, FileVideo, Folder, type LucideIcon } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Menu } from '../../../components/ui/menu';
import { thumbnailUrl } from '../../../lib/file-urls';
import { VIEWER_OPENED_STATE } from '../../../lib/viewer-link';
import { entryKey, menuLabel, RowCheckbox, rowsOf, type EntryListProps, type Row } from './entry-list';

const KIND_ICONS: Record<FileKind, LucideIcon> = {
  image: FileImage,
  audio: FileAudio,
  video: FileVideo,
  document: FileText,
  other: File,
};

/** The card's picture: the server's thumbnail where there may be one (an icon if it answers with an error). */
function Picture({ row }: { row: Row }) {
  const [failed, setFailed] = useState(false);
  const { file } = row;
  if (file && !failed && ALL_THUMBNAIL_TYPES.includes(file.contentType)) {
    return (
      <img
        src={thumbnailUrl(row.target.id, file.uploadDate)}
        alt=""
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
        // A page shows its top (the title), a picture its middle.
        className={`size-full object-cover ${PAGE_THUMBNAIL_TYPES.includes(file.contentType) ? 'object-top' : ''}`}
        data-testid="grid-thumbnail"
      />
    );
  }
  const Icon = file ? KIND_ICONS[fileKindOf(file.contentType)] : Folder;
  return (
    <Icon
      className={`size-10 ${file ? 'text-slate-400' : 'text-brand-600'}`}
      aria-hidden="true"
      data-testid="grid-icon"
    />
  );
}

/** Moves focus between the cards' links with the arrow keys (up and down by a row of the grid as laid out). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 0, ArrowUp: 0 }[event.key];
  if (step === undefined) return;
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[data-card-link]'));
  const from = links.indexOf(document.activeElement as HTMLElement);
  if (from < 0) return;
  let to = from + step;
  if (step === 0) {
    // Cards per row: those on the first card's line.
    const top = links[0]?.getBoundingClientRect().top ?? 0;
    const perRow = Math.max(1, links.filter((link) => link.getBoundingClientRect().top === top).length);
    to = from + (event.key === 'ArrowDown' ? perRow : -perRow);
  }
  const target = links[Math.min(links.length - 1, Math.max(0, to))];
  if (!target || target === links[from]) return;
  event.preventDefault();
  target.focus();
}

/**
 * The folder's entries as cards with thumbnails (images, PDFs' first pages, videos' posters; an icon per type
 * otherwise): 2 columns on a phone, up to 6 on a wide screen. Each card has the list's checkbox and action menu;
 * Tab and the arrow keys reach the cards, Enter opens one, Space selects it.
 */
export function EntryGrid(props: EntryListProps) {
  const rows = rowsOf(props);
  const { selection } = props;
  return (
    <ul
      aria-label="Folder contents"
      onKeyDown={moveFocus}
      className="grid grid-cols-2 gap-3 p-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 2xl:grid-cols-6"
    >
      {rows.map((row) => {
        const chosen = selection?.keys.has(entryKey(row.target)) ?? false;
        const details = row.target.kind === 'folder' ? 'Folder' : row.size;
        const linkClass =
          'block truncate rounded text-sm font-medium text-slate-900 after:absolute after:inset-0 after:content-[""] hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';
        const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
          if (event.key !== ' ' || !selection) return;
          event.preventDefault();
          selection.onToggle(entryKey(row.target), event.shiftKey);
        };
        const name = (
          <span title={row.target.name} className="block truncate">
            {row.target.name}
          </span>
        );
        return (
          <li
            key={entryKey(row.target)}
            data-testid="grid-card"
            data-entry={entryKey(row.target)}
            className={`relative flex min-w-0 scroll-mt-24 flex-col overflow-hidden rounded-lg border focus-within:ring-2 focus-within:ring-brand-600 ${chosen ? 'border-brand-500 bg-brand-50' : 'border-slate-200 bg-white'}`}
          >
            <div className="flex aspect-[4/3] items-center justify-center overflow-hidden bg-slate-50">
              <Picture row={row} />
            </div>
            <div className="min-w-0 px-2 py-2">
              {row.newTab ? (
                <a
                  href={row.href}
                  target="_blank"
                  rel="noopener"
                  data-card-link
                  className={linkClass}
                  onKeyDown={onKeyDown}
                >
                  {name}
                </a>
              ) : (
                <Link
                  to={row.href}
                  state={row.target.kind === 'file' ? VIEWER_OPENED_STATE : undefined}
                  data-card-link
                  className={linkClass}
                  onKeyDown={onKeyDown}
                >
                  {name}
                </Link>
              )}
              <p className="mt-0.5 truncate text-xs text-slate-600" title={`${details} · ${row.date}`}>
                {details} · {row.date}
              </p>
            </div>
            {/* Above the link's full-card click area. */}
            {selection && (
              <div className="absolute top-1.5 left-1.5 z-10 rounded bg-white/90 p-1 shadow-sm">
                <RowCheckbox row={row} selection={selection} />
              </div>
            )}
            <div className="absolute top-1 right-1 z-10 rounded-lg bg-white/90 shadow-sm">
              <Menu label={menuLabel(row)} items={row.items} contextArea="li" />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
