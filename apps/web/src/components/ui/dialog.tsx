import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  /** Optional line under the title (read as the dialog's description). */
  description?: string | undefined;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode;
  /** `lg` suits content of any length (e.g. the share dialog). */
  size?: 'sm' | 'md' | 'lg';
  /**
   * `sheet`: a bottom sheet, full width, on phones; centred from the `sm` breakpoint up. `side`: a full-height panel
   * at the right edge from the `sm` breakpoint up (its width from `size`), the whole screen on phones.
   */
  variant?: 'centered' | 'sheet' | 'side';
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const SIZES = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' } as const;
const SIDE_SIZES = { sm: 'sm:max-w-sm', md: 'sm:max-w-md', lg: 'sm:max-w-xl' } as const;

/**
 * A modal dialog (UI kit): focus moves to its `[data-autofocus]` element, else its first field, else its first
 * control; Tab and Shift+Tab stay inside, Escape or the close button closes it, and focus returns to where it was.
 * Content scrolls inside the dialog, never sideways on a phone. A dialog opened from this one (a confirmation)
 * handles its own keys.
 */
export function Dialog({
  open,
  title,
  description,
  onClose,
  children,
  footer,
  size = 'md',
  variant = 'centered',
}: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    const first =
      panel?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel?.querySelector<HTMLElement>('input, select, textarea') ??
      panel?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => previous?.focus();
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if ((event.target as HTMLElement).closest('[aria-modal="true"]') !== panelRef.current) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = Array.from(panelRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
      (element) => !element.closest('[hidden]'),
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const side = variant === 'side';
  const sheet = variant === 'sheet' || side;
  const overlay = side
    ? 'justify-end items-stretch'
    : sheet
      ? 'justify-center items-end sm:items-center sm:p-4'
      : 'justify-center items-center p-4';
  const frame = side
    ? 'h-full sm:border-l sm:border-slate-200'
    : sheet
      ? 'max-h-[92vh] rounded-t-2xl sm:rounded-2xl'
      : 'max-h-[90vh] rounded-xl';
  return (
    <div className={`fixed inset-0 z-50 flex bg-slate-900/50 ${overlay}`}>
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        onKeyDown={onKeyDown}
        className={`flex w-full min-w-0 flex-col bg-white shadow-xl ${side ? SIDE_SIZES[size] : SIZES[size]} ${frame}`}
      >
        <div
          className={`flex items-start justify-between gap-3 ${
            sheet ? 'border-b border-slate-200 px-5 py-4' : 'px-6 pt-5'
          }`}
        >
          <div className="min-w-0">
            <h2 id={titleId} className="break-words text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-1 break-words text-sm text-slate-600">
                {description}
              </p>
            )}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="-mr-2 rounded-lg p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
        <div className={`min-h-0 flex-1 overflow-y-auto ${sheet ? 'px-5' : 'px-6'} py-4`}>{children}</div>
        {footer && (
          <div className={`flex flex-wrap justify-end gap-3 border-t border-slate-100 ${sheet ? 'px-5' : 'px-6'} py-4`}>
            {footer}
          </div>
        )}
      </div>
    </div>
  );
}
