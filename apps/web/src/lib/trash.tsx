import { ENDPOINTS } from '@atrium/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify/unstyled';
import { call } from './api-client';
import { errorText } from './api-error';
import { queryKeys } from './query-keys';
import { showToast } from './toast';

export const restoreFromTrash = (id: string) => call(ENDPOINTS.trash.restore, { params: { id } });

/**
 * Reloads whatever a delete or a restore changes: the file lists and stats, folder listings, shared with me and the
 * trash (every screen that deletes refreshes the trash).
 */
export function useTrashInvalidation() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.files.all(), queryKeys.folders.all(), queryKeys.sharedWithMe(), queryKeys.trash()].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

/**
 * The success toast of a delete with an **Undo** button that restores the item from the trash (and says so), for
 * every screen that deletes. `text` stays the screen's own message (the spec's "File deleted successfully!").
 */
export function useUndoToast() {
  const invalidate = useTrashInvalidation();
  return (text: string, item: { id: string; name: string }) => {
    const id = `deleted:${item.id}`;
    toast.success(
      ({ closeToast }) => (
        <div className="flex w-full flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <span>{text}</span>
          <button
            type="button"
            className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-label={`Undo: restore ${item.name} from the trash`}
            onClick={() => {
              closeToast();
              restoreFromTrash(item.id)
                .then((restored) => {
                  showToast('success', `Restored ${restored.name}.`);
                  return invalidate();
                })
                .catch((error: unknown) => showToast('error', errorText(error) ?? 'Could not restore it.'));
            }}
          >
            Undo
          </button>
        </div>
      ),
      { toastId: id, autoClose: 8000 },
    );
  };
}
