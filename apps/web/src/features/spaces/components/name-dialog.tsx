import { useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';

export interface NameDialogProps {
  title: string;
  label: string;
  submitLabel: string;
  initial?: string;
  busy?: boolean;
  /** The server's message after a refused save, shown under the field. */
  error?: string | null | undefined;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** A dialog with one name field (new folder, rename, new workspace): Enter saves, errors show inline. */
export function NameDialog({
  title,
  label,
  submitLabel,
  initial = '',
  busy,
  error,
  onSubmit,
  onClose,
}: NameDialogProps) {
  const [name, setName] = useState(initial);
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
        <TextField label={label} value={name} onChange={setName} error={error} autoComplete="off" />
      </form>
    </Dialog>
  );
}
