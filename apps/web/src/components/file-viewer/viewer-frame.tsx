import { ChevronLeft, ChevronRight, PanelRightClose, PanelRightOpen, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

// The frame of the file viewer (docs/PRODUCT.md#file-viewer): a full-screen modal dialog with the file's name, a
// toolbar, the content with Previous / Next, and the insights beside it (under it on a phone, collapsible).
// zod-free: the public link page's read-only viewer uses it too.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"])';

/** Keys typed into these belong to them (a player's arrows seek; a field's move the caret). */
const OWNS_ARROWS = 'input, textarea, select, audio, video, [contenteditable="true"], [role="slider"]';
/** Where a letter key is typed, not a shortcut. */
const TYPING = 'input, textarea, select, [contenteditable="true"]';

/** The classes of a toolbar button: an icon, with its label shown from the `sm` breakpoint up. */
export const viewerToolClass =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1.5 rounded-lg px-2 text-sm font-medium text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-50';

/** The label of a toolbar button: read by screen readers always, shown from the `sm` breakpoint up. */
export function ToolLabel({ children }: { children: ReactNode }) {
  return <span className="sr-only sm:not-sr-only">{children}</span>;
}

export interface ViewerFrameProps {
  /** The file's name: the dialog's title. */
  title: string;
  /** A line under the title (size and type, where it is). */
  subtitle?: string | undefined;
  onClose: () => void;
  /** Absent at the first file (the button is disabled). */
  onPrevious?: (() => void) | undefined;
  /** Absent at the last file. */
  onNext?: (() => void) | undefined;
  /** "3 of 12" */
  position?: string | undefined;
  /** Buttons of the toolbar, right of the title. */
  toolbar?: ReactNode;
  /** The insights (or details) beside the content; none: the content takes the whole width. */
  aside?: ReactNode;
  children: ReactNode;
}

/**
 * A modal dialog over the whole screen: focus moves in and stays in (Tab wraps), Escape closes it and focus returns
 * to where it was, ← and → go to the previous and next file (unless a field or player has the focus).
 */
export function ViewerFrame({
  title,
  subtitle,
  onClose,
  onPrevious,
  onNext,
  position,
  toolbar,
  aside,
  children,
}: ViewerFrameProps) {
  const titleId = useId();
  const asideId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [asideOpen, setAsideOpen] = useState(true);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, []);

  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    const inPanel = panel.current?.contains(target) ?? false;
    // A dialog opened from the viewer (versions, details, share) handles its own keys; so does anything else modal.
    const modal = target.closest('[aria-modal="true"]');
    if (modal && modal !== panel.current) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && !(inPanel && target.closest(OWNS_ARROWS))) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const go = event.key === 'ArrowLeft' ? onPrevious : onNext;
      if (go) {
        event.preventDefault();
        go();
      }
      return;
    }
    // A one-letter shortcut (`s`: star) presses the toolbar button that declares it with `aria-keyshortcuts`.
    if (/^[a-z]$/.test(event.key) && !event.altKey && !event.ctrlKey && !event.metaKey && !target.closest(TYPING)) {
      const button = panel.current?.querySelector<HTMLElement>(`[aria-keyshortcuts="${event.key}"]`);
      if (button) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = Array.from(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
      (element) => !element.closest('[hidden]'),
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (!inPanel) {
      event.preventDefault();
      first.focus();
    } else if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  useEffect(() => {
    keys.current = onKey;
  });
  useEffect(() => {
    // On the window: the keys still work when the focused button went away (Next at the last file).
    const onKeyDown = (event: KeyboardEvent) => keys.current(event);
    // Focus stays in the viewer: a page loading under it (autofocus) must not take it.
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target as HTMLElement;
      if (panel.current?.contains(target) || target.closest('[aria-modal="true"]') || target.closest('.Toastify'))
        return;
      closeButton.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, []);

  const sideButton =
    'absolute top-1/2 z-10 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-slate-900/70 text-white shadow hover:bg-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:hidden';
  return (
    <div
      ref={panel}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-viewer
      data-testid="file-viewer"
      className="fixed inset-0 z-50 flex flex-col bg-slate-950 text-white"
    >
      <header className="flex shrink-0 items-center gap-1 border-b border-white/10 px-2 py-2 sm:gap-2 sm:px-4">
        <button
          ref={closeButton}
          type="button"
          onClick={onClose}
          aria-label="Close the viewer"
          className={viewerToolClass}
        >
          <X aria-hidden="true" className="size-5" />
        </button>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-sm font-semibold sm:text-base" title={title}>
            {title}
          </h2>
          {(subtitle || position) && (
            <p className="truncate text-xs text-slate-300">{[position, subtitle].filter(Boolean).join(' · ')}</p>
          )}
        </div>
        <div role="toolbar" aria-label="File actions" className="flex shrink-0 items-center gap-0.5 sm:gap-1">
          {toolbar}
          {aside && (
            <button
              type="button"
              aria-expanded={asideOpen}
              aria-controls={asideId}
              onClick={() => setAsideOpen((open) => !open)}
              className={viewerToolClass}
            >
              {asideOpen ? (
                <PanelRightClose aria-hidden="true" className="size-4" />
              ) : (
                <PanelRightOpen aria-hidden="true" className="size-4" />
              )}
              <ToolLabel>Insights</ToolLabel>
            </button>
          )}
        </div>
      </header>
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto md:flex-row md:overflow-hidden">
        <div className="relative flex min-h-[55dvh] min-w-0 flex-1 flex-col p-2 sm:p-4 md:min-h-0 md:overflow-auto">
          <button
            type="button"
            aria-label="Previous file"
            onClick={onPrevious}
            disabled={!onPrevious}
            className={`${sideButton} left-2`}
          >
            <ChevronLeft aria-hidden="true" className="size-6" />
          </button>
          <div className="flex min-h-0 flex-1 flex-col justify-center">{children}</div>
          <button
            type="button"
            aria-label="Next file"
            onClick={onNext}
            disabled={!onNext}
            className={`${sideButton} right-2`}
          >
            <ChevronRight aria-hidden="true" className="size-6" />
          </button>
        </div>
        {aside && (
          <aside
            id={asideId}
            aria-label="Insights"
            hidden={!asideOpen}
            className="shrink-0 border-t border-white/10 bg-white p-3 text-slate-900 md:w-96 md:overflow-y-auto md:border-t-0 md:border-l"
          >
            {aside}
          </aside>
        )}
      </div>
    </div>
  );
}

/** What the viewer says of a file it cannot show (missing, or not the reader's to read). */
export function ViewerUnavailable({ message = 'This file is not available' }: { message?: string }) {
  return (
    <div className="mx-auto max-w-sm rounded-2xl bg-white p-6 text-center text-slate-900">
      <p className="text-lg font-semibold">{message}</p>
      <p className="mt-2 text-sm text-slate-600">
        It may have been deleted or moved, or it is no longer shared with you.
      </p>
    </div>
  );
}
