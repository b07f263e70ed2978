import type { FileRecord } from '@atrium/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { buttonClass, type ButtonVariant } from '../../../components/ui/button';
import { isApiError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { getFile } from '../api/files-api';
import { FileIdField } from './page';

/**
 * The form of the download and delete screens: a File ID, looked up first (`GET /api/files/{id}`; 'File not found'
 * for an id the caller has no file by, `failureMessage` for anything else), then `onFound` with the file.
 */
export function FileIdForm({
  fileId,
  onFileIdChange,
  submitLabel,
  variant,
  failureMessage,
  onFound,
  children,
}: {
  fileId: string;
  onFileIdChange: (value: string) => void;
  submitLabel: string;
  variant: ButtonVariant;
  failureMessage: string;
  onFound: (file: FileRecord) => void;
  children?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const id = fileId.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!id) return;
    setBusy(true);
    try {
      onFound(await getFile(id));
    } catch (error) {
      showToast('error', isApiError(error) && error.status === 404 ? 'File not found' : failureMessage);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="max-w-xl space-y-3">
      <FileIdField value={fileId} onChange={onFileIdChange} />
      <button type="submit" disabled={!id || busy} className={buttonClass(variant)}>
        {busy ? 'Checking…' : submitLabel}
      </button>
      {children}
    </form>
  );
}
