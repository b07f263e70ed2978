import type { FileRecord } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { useState } from 'react';
import { showToast } from '../../../lib/toast';
import { useUndoToast } from '../../../lib/trash';
import { isApiError } from '../../../lib/api-error';
import { useDeleteFile } from '../api/files-api';
import { Alert } from '../../../components/ui/alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

/**
 * Confirmation, then delete (the file moves to the trash), a success toast with Undo and a reload of the file data;
 * failures toast and show inline.
 */
export function useDeleteFlow(onDeleted?: () => void) {
  const [target, setTarget] = useState<FileRecord | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const mutation = useDeleteFile();
  const undoToast = useUndoToast();

  const confirm = () => {
    if (!target) return;
    setFailure(null);
    mutation.mutate(target.id, {
      onSuccess: () => {
        undoToast('File deleted successfully!', { id: target.id, name: target.fileName });
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
          ? `“${target.fileName}” (${formatBytes(target.size)}, uploaded ${new Date(target.uploadDate).toLocaleString()}) will be moved to the trash. You can restore it from Trash.`
          : ''
      }
      confirmLabel="Delete"
      busy={mutation.isPending}
      onConfirm={confirm}
      onCancel={() => setTarget(null)}
    />
  );
  const failureMessage =
    failure === null ? null : <Alert className="mt-3">Delete failed.{failure ? ` ${failure}` : ''}</Alert>;
  return { ask: (file: FileRecord) => setTarget(file), dialog, failureMessage };
}
