import { Download, FolderInput, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorText } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { downloadArchive, useDeleteFile, useDeleteFolder } from '../api/spaces-api';
import { idsOf } from '../lib/selection';

/**
 * The bar of bulk actions over the chosen rows: how many, **Download as zip** (one streamed zip of the files and
 * folders, `POST /api/files/archive`), **Move** (the folder picker, each item through its own request), **Delete** for editors and owners (asks first; each item through the ordinary
 * delete route, so every rule applies per item, and a failure says how many were not deleted and why), and clearing the choice.
 */
export function BulkBar({
  keys,
  canWrite,
  onClear,
  onMove,
}: {
  keys: ReadonlySet<string>;
  canWrite: boolean;
  onClear: () => void;
  /** Opens the folder picker for the chosen rows (editors and owners). */
  onMove: () => void;
}) {
  const [zipping, setZipping] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const deleteFile = useDeleteFile();
  const deleteFolder = useDeleteFolder();
  if (keys.size === 0) return null;
  const { fileIds, folderIds } = idsOf(keys);
  const count = keys.size;
  const label = `${count} ${count === 1 ? 'item' : 'items'} selected`;

  const zip = async () => {
    setZipping(true);
    try {
      const name = await downloadArchive({ fileIds, folderIds });
      showToast('success', `Downloading ${name}.`);
    } catch (error) {
      showToast('error', errorText(error) ?? 'The zip could not be made.');
    } finally {
      setZipping(false);
    }
  };

  const remove = async () => {
    setDeleting(true);
    const results = await Promise.allSettled([
      ...folderIds.map((id) => deleteFolder.mutateAsync(id)),
      ...fileIds.map((id) => deleteFile.mutateAsync(id)),
    ]);
    setDeleting(false);
    setConfirming(false);
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    if (failures.length === 0) showToast('success', `Moved ${count} ${count === 1 ? 'item' : 'items'} to the trash.`);
    else {
      // The first refusal's reason, e.g. a file locked in another app (docs/PRODUCT.md#webdav).
      const reason = errorText(failures[0]);
      showToast('error', `${failures.length} of ${count} could not be deleted${reason ? `: ${reason}` : '.'}`);
    }
    onClear();
  };

  return (
    <div
      role="region"
      aria-label="Selected items"
      className="sticky top-2 z-20 flex flex-wrap items-center gap-2 rounded-xl border border-brand-100 bg-brand-50 px-3 py-2 shadow-sm"
    >
      <p className="mr-auto text-sm font-medium text-brand-900" aria-live="polite">
        {label}
      </p>
      <button type="button" onClick={() => void zip()} disabled={zipping} className={buttonClass('secondary')}>
        <Download className="size-4" aria-hidden="true" /> {zipping ? 'Preparing…' : 'Download as zip'}
      </button>
      {canWrite && (
        <button type="button" onClick={onMove} className={buttonClass('secondary')}>
          <FolderInput className="size-4" aria-hidden="true" /> Move
        </button>
      )}
      {canWrite && (
        <button type="button" onClick={() => setConfirming(true)} className={buttonClass('secondary')}>
          <Trash2 className="size-4" aria-hidden="true" /> Delete
        </button>
      )}
      <button type="button" onClick={onClear} aria-label="Clear selection" className={buttonClass('secondary')}>
        <X className="size-4" aria-hidden="true" />
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${count} ${count === 1 ? 'item' : 'items'}?`}
        message="The selected files, and the selected folders with everything inside them, will be moved to the trash. You can restore them from Trash."
        confirmLabel="Delete"
        busy={deleting}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
