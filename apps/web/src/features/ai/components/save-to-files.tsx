import type { FileRecord } from '@atrium/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FolderInput } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { StoredFilePicker, type ChosenFolder } from '../../../components/files/stored-file-picker';
import { errorText, isApiError } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';
import { showToast } from '../../../lib/toast';
import { uploadMultipart } from '../../../lib/upload';
import { secondaryButtonClass, Working } from './ai-page';
import { Alert } from './alert';

/** Why a save failed, in the words a person can act on (the server's own message where it has one). */
export function saveFailure(error: unknown): string {
  if (isApiError(error) && error.status === 403)
    return 'You can only view that folder, so nothing can be saved there. Choose a folder you can edit.';
  return errorText(error) ?? 'Saving to files failed. Please try again.';
}

/**
 * "Save to files" under a result: choose a folder (the stored-file picker in its folder mode), then the result is
 * uploaded there like any file (`POST /api/files/upload?folderId=`); a toast and a link lead to the folder.
 */
export function SaveToFiles({ what, make }: { what: string; make: () => File }) {
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const save = useMutation({
    mutationFn: async (folder: ChosenFolder) => ({
      record: await uploadMultipart(make(), { folderId: folder.id }),
      folder,
    }),
    onSuccess: ({ record, folder }: { record: FileRecord; folder: ChosenFolder }) => {
      // The toast opens the folder when clicked; the inline line below links to it too (keyboard and screen readers).
      showToast('success', `Saved ${record.fileName} to ${folder.name}.`, {
        onClick: () => void navigate(folder.href),
      });
      void client.invalidateQueries({ queryKey: queryKeys.folders.all() });
      void client.invalidateQueries({ queryKey: queryKeys.files.all() });
    },
  });
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={secondaryButtonClass}
        onClick={() => setOpen(true)}
        disabled={save.isPending}
        aria-label={`Save the ${what} to files`}
      >
        <FolderInput className="size-4" aria-hidden="true" /> Save to files
      </button>
      {save.isPending && <Working label="Saving to files…" />}
      {save.isSuccess && (
        <p role="status" className="text-sm text-slate-700">
          Saved <span className="break-all font-medium text-slate-900">{save.data.record.fileName}</span> to{' '}
          <Link to={save.data.folder.href} className="font-medium text-brand-700 underline hover:text-brand-800">
            {save.data.folder.name}
          </Link>
          .
        </p>
      )}
      {save.isError && (
        <Alert>
          Could not save the {what}. {saveFailure(save.error)}
        </Alert>
      )}
      {open && (
        <StoredFilePicker
          mode="folder"
          title={`Save the ${what} to files`}
          confirmLabel="Save here"
          onClose={() => setOpen(false)}
          onChoose={(folder) => {
            setOpen(false);
            save.mutate(folder);
          }}
        />
      )}
    </div>
  );
}
