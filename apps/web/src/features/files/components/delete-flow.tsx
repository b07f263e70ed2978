import type { FileRecord } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { useState } from 'react';
import { showToast } from '../../../lib/toast';
import { isApiError } from '../../../lib/api-error';
import { useDeleteFile } from '../api/files-api';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

/** Confirmation, then delete, success toast and a reload of the file data; failures toast and show inline. */
export function useDeleteFlow(onDeleted?: () => void) {
  const [target, setTarget] = useState<FileRecord | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const mutation = useDeleteFile();

  const confirm = () => {
    if (!target) return;
    setFailure(null);
    mutation.mutate(target.id, {
      onSuccess: () => {
        showToast('success', 'File deleted successfully!');
        setTarget(null);
        onDeleted?.();
      },
      onError: (error) => {
        showToast('error', 'Failed to delete file.');
        setFailure(isApiError(error) ? error.message : '');
        setTarget(null);
      },
    });
  };

  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title="Delete this file?"
      message={
        target
          ? `“${target.fileName}” (${formatBytes(target.size)}, uploaded ${new Date(target.uploadDate).toLocaleString()}) will be deleted permanently.`
          : ''
      }
      confirmLabel="Delete"
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={() => setTarget(null)}
    />
  );
  const failureMessage =
    failure === null ? null : (
      <p role="alert" className="mt-3 text-sm text-red-700">
        Delete failed.{failure ? ` ${failure}` : ''}
      </p>
    );
  return { ask: (file: FileRecord) => setTarget(file), dialog, failureMessage };
}
