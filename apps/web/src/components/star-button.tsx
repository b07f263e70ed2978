import { Star } from 'lucide-react';
import { useStar } from '../lib/stars';

export interface StarButtonProps {
  id: string;
  kind?: 'file' | 'folder';
  /** The item's name, for the accessible name ("Star brief.txt"). */
  name: string;
  /** Show "Star" / "Starred" beside the icon (toolbars); icon only otherwise. */
  withLabel?: boolean;
  /** A key that presses it where its container listens for shortcuts (the viewer: `s`). */
  shortcut?: string;
}

/**
 * A toggle button (`aria-pressed`: starred) named "Star <name>", or "Star" beside the icon in toolbars, that
 * stars or unstars a file or folder (docs/PRODUCT.md#starred-and-recent).
 */
export function StarButton({ id, kind = 'file', name, withLabel = false, shortcut }: StarButtonProps) {
  const { starred, toggle, pending } = useStar(id, kind);
  return (
    <button
      type="button"
      aria-pressed={starred}
      aria-keyshortcuts={shortcut}
      aria-label={withLabel ? undefined : `Star ${name}`}
      title={`${starred ? `Starred: press to remove the star from ${name}` : `Star ${name}`}${shortcut ? ` (${shortcut})` : ''}`}
      disabled={pending}
      onClick={toggle}
      className="inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <Star aria-hidden="true" className={`size-5 ${starred ? 'fill-amber-400 text-amber-500' : 'text-slate-500'}`} />
      {withLabel && <span>Star</span>}
    </button>
  );
}
