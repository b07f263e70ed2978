import { Check, Copy } from 'lucide-react';
import { useEffect, useState, type RefObject } from 'react';
import { copyText } from '../../lib/copy-text';
import { buttonClass } from './button';

export interface CopyButtonProps {
  /** What goes to the clipboard. */
  text: string;
  /** The field showing `text`: selected for the copy command where the Clipboard API is missing (plain http). */
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  /** The button's text (default "Copy"); "Copied" for two seconds after a copy. */
  label?: string;
  /** The accessible name when the visible text alone is ambiguous ("Copy SHA-256"); must contain `label`. */
  ariaLabel?: string;
  /** What is copied, for the announcements: "Link" → "Link copied to the clipboard." (default "Text"). */
  what?: string;
  /** What to select when copying is impossible: "Could not copy: select the address…" (default: `what`). */
  selectWhat?: string;
  /** Classes of the failure message (shown; the success message is for screen readers only). */
  statusClassName?: string;
  /** Focused first when its dialog opens (`data-autofocus`). */
  autoFocus?: boolean;
}

/**
 * The one copy button: copies `text`, says "Copied" for two seconds, announces the result in a status region and, when
 * copying is impossible, says to select the text and copy it.
 */
export function CopyButton({
  text,
  field,
  label = 'Copy',
  ariaLabel,
  what = 'Text',
  selectWhat = what.toLowerCase(),
  statusClassName = 'text-sm text-red-700',
  autoFocus = false,
}: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button
        type="button"
        aria-label={state === 'copied' ? undefined : ariaLabel}
        data-autofocus={autoFocus || undefined}
        onClick={() => {
          copyText(text, field.current)
            .then(() => setState('copied'))
            .catch(() => setState('failed'));
        }}
        className={buttonClass('secondary')}
      >
        {state === 'copied' ? (
          <Check aria-hidden="true" className="size-4" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span role="status" className={state === 'failed' ? statusClassName : 'sr-only'}>
        {state === 'copied'
          ? `${what} copied to the clipboard.`
          : state === 'failed'
            ? `Could not copy: select the ${selectWhat} and copy it.`
            : ''}
      </span>
    </>
  );
}
