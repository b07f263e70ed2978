import { useRef, useState, type ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { baseNameEnd } from '../lib/browser-logic';

export interface NameDialogProps {
  title: string;
  label: string;
  submitLabel: string;
  initial?: string;
  busy?: boolean;
  /** The server's message after a refused save, shown under the field. */
  error?: string | null | undefined;
  /** A file's rename: the field starts with the base name selected, not its extension. */
  selectBase?: boolean;
  /** Shown under the field (e.g. a choice after a refusal: Keep both). */
  children?: ReactNode;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/**
 * A dialog with one name field (new folder, rename, new workspace): Enter saves, errors show inline. The name is
 * selected when the field gets focus (for a file only up to its extension), so typing replaces it.
 */
export function NameDialog({
  title,
  label,
  submitLabel,
  initial = '',
  busy,
  error,
  selectBase,
  children,
  onSubmit,
  onClose,
}: NameDialogProps) {
  const [name, setName] = useState(initial);
  const selected = useRef(false);
  const formId = `${title.replace(/\W+/g, '-').toLowerCase()}-form`;
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      size="sm"
      footer={
        <>
          <button type="button" onClick={onClose} className={buttonClass('secondary')}>
            Cancel
          </button>
          <button type="submit" form={formId} disabled={busy} className={buttonClass('primary')}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(name);
        }}
      >
        <TextField
          label={label}
          value={name}
          onChange={setName}
          error={error}
          autoComplete="off"
          onFocus={(event) => {
            // Once, when the dialog opens: later focus keeps what the person selected.
            if (selected.current) return;
            selected.current = true;
            event.currentTarget.setSelectionRange(0, selectBase ? baseNameEnd(name) : name.length);
          }}
        />
        {children}
      </form>
    </Dialog>
  );
}
