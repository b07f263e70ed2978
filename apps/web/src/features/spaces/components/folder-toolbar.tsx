import type { FileKind, FileView, FolderSort } from '@atrium/contracts';
import {
  ArrowDownAZ,
  ArrowUpZA,
  FolderPlus,
  FolderUp,
  LayoutGrid,
  List,
  SlidersHorizontal,
  Upload,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { showToast } from '../../../lib/toast';
import { useWideScreen } from '../../../lib/use-wide-screen';
import { ViewToggle } from './view-toggle';

/** The type filter: the server lists only files of that kind (folders all the same). */
const KINDS: { value: FileKind | ''; label: string }[] = [
  { value: '', label: 'All types' },
  { value: 'image', label: 'Images' },
  { value: 'audio', label: 'Audio' },
  { value: 'video', label: 'Videos' },
  { value: 'document', label: 'Documents' },
  { value: 'other', label: 'Other files' },
];

const SORTS: { value: FolderSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'date', label: 'Date' },
  { value: 'size', label: 'Size' },
  { value: 'type', label: 'Type' },
];

export interface FolderToolbarProps {
  view: FileView;
  onView: (view: FileView) => void;
  sort: FolderSort;
  onSort: (sort: FolderSort) => void;
  order: 'asc' | 'desc';
  onOrder: (order: 'asc' | 'desc') => void;
  kind: FileKind | '';
  onKind: (kind: FileKind | '') => void;
  /** Why nothing may be added here (a viewer), or null: Upload and New folder are then offered disabled. */
  viewOnly: string | null;
  /** The id of the visible text that says `viewOnly` (the disabled buttons are described by it). */
  reasonId: string;
  onNewFolder: () => void;
  onUpload: () => void;
  onUploadFolder: () => void;
}

const selectClass =
  'min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';
const disabledLook = 'aria-disabled:cursor-not-allowed aria-disabled:opacity-60';
const iconButton =
  'inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600';

/**
 * The file browser's toolbar (docs/PRODUCT.md#spaces-screens): view, sort, order, type filter, New folder, Upload
 * and Upload folder. A viewer sees the last three disabled, described by the reason and saying it when pressed.
 * On a phone it is one row: Upload, New folder and Upload folder as icons, the view, and **More**, which shows
 * the sort, the order and the type filter under it.
 */
export function FolderToolbar(props: FolderToolbarProps) {
  const wide = useWideScreen();
  const sortId = useId();
  const kindId = useId();
  const moreId = useId();
  const [more, setMore] = useState(false);
  const { viewOnly, reasonId } = props;

  /** A change of content: disabled for a viewer (still focusable, so its reason can be read and heard). */
  const action = (label: string, onClick: () => void, Icon: LucideIcon, className: string, iconOnly = false) => (
    <button
      type="button"
      aria-label={iconOnly ? label : undefined}
      aria-disabled={viewOnly ? true : undefined}
      aria-describedby={viewOnly ? reasonId : undefined}
      title={viewOnly ?? (iconOnly ? label : undefined)}
      onClick={() => (viewOnly ? showToast('info', viewOnly) : onClick())}
      className={`${className} ${disabledLook}`}
    >
      <Icon className="size-4" aria-hidden="true" />
      {!iconOnly && ` ${label}`}
    </button>
  );

  const filters = (
    <>
      <label htmlFor={sortId} className="sr-only">
        Sort by
      </label>
      <select
        id={sortId}
        value={props.sort}
        onChange={(event) => props.onSort(event.target.value as FolderSort)}
        className={selectClass}
      >
        {SORTS.map((option) => (
          <option key={option.value} value={option.value}>
            Sort by {option.label.toLowerCase()}
          </option>
        ))}
      </select>
      <label htmlFor={kindId} className="sr-only">
        Show
      </label>
      <select
        id={kindId}
        value={props.kind}
        onChange={(event) => props.onKind(event.target.value as FileKind | '')}
        className={selectClass}
      >
        {KINDS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={() => props.onOrder(props.order === 'asc' ? 'desc' : 'asc')}
        aria-label={
          props.order === 'asc' ? 'Ascending order; switch to descending' : 'Descending order; switch to ascending'
        }
        className={buttonClass('secondary')}
      >
        {props.order === 'asc' ? (
          <ArrowDownAZ className="size-4" aria-hidden="true" />
        ) : (
          <ArrowUpZA className="size-4" aria-hidden="true" />
        )}
      </button>
    </>
  );

  if (wide) {
    return (
      <div className="flex flex-wrap items-center gap-2" data-testid="folder-toolbar">
        <ViewToggle view={props.view} onChange={props.onView} />
        {filters}
        {action('New folder', props.onNewFolder, FolderPlus, buttonClass('secondary'))}
        {action('Upload', props.onUpload, Upload, buttonClass('primary'))}
        {action('Upload folder', props.onUploadFolder, FolderUp, buttonClass('secondary'))}
      </div>
    );
  }

  return (
    <div className="w-full space-y-2">
      <div className="flex flex-nowrap items-center gap-2" data-testid="folder-toolbar">
        {action('Upload', props.onUpload, Upload, `${buttonClass('primary')} shrink-0`)}
        {action('New folder', props.onNewFolder, FolderPlus, iconButton, true)}
        {action('Upload folder', props.onUploadFolder, FolderUp, iconButton, true)}
        <div
          role="group"
          aria-label="View"
          className="ml-auto inline-flex shrink-0 rounded-lg border border-slate-300 bg-white p-0.5"
        >
          {(
            [
              { value: 'list', label: 'List', Icon: List },
              { value: 'grid', label: 'Grid', Icon: LayoutGrid },
            ] as const
          ).map(({ value, label, Icon }) => (
            <button
              key={value}
              type="button"
              aria-label={label}
              aria-pressed={props.view === value}
              onClick={() => props.view !== value && props.onView(value)}
              className={`inline-flex size-8 items-center justify-center rounded-md focus-visible:outline-2 focus-visible:outline-brand-600 ${
                props.view === value ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100'
              }`}
            >
              <Icon className="size-4" aria-hidden="true" />
            </button>
          ))}
        </div>
        <button
          type="button"
          aria-label="More"
          aria-expanded={more}
          aria-controls={moreId}
          title="Sort and filter"
          onClick={() => setMore(!more)}
          className={`${iconButton} ${more ? 'bg-slate-100' : ''}`}
        >
          <SlidersHorizontal className="size-4" aria-hidden="true" />
        </button>
      </div>
      {more && (
        <div id={moreId} role="group" aria-label="Sort and filter" className="flex flex-nowrap items-center gap-2">
          {filters}
        </div>
      )}
    </div>
  );
}
