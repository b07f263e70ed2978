import { formatBytes } from '@atrium/contracts/format-bytes';
import { Download, RotateCcw } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { versionUrl } from '../../../lib/file-urls';
import { showToast } from '../../../lib/toast';
import { useRestoreVersion, useVersions } from '../api/spaces-api';
import type { EntryTarget } from './entry-list';

export interface VersionsDialogProps {
  target: EntryTarget;
  /** Editors and owners may make an older version current. */
  canWrite: boolean;
  onClose: () => void;
}

/**
 * A file's older versions (docs/PRODUCT.md#trash-and-versions): size, date and who uploaded each, newest first;
 * Download for everyone who may read the file, Restore (the current content becomes a version) for those who may
 * change it.
 */
export function VersionsDialog({ target, canWrite, onClose }: VersionsDialogProps) {
  const versions = useVersions(target.id);
  const restore = useRestoreVersion(target.id);
  return (
    <Dialog
      open
      title={`Versions of ${target.name}`}
      description="Uploading a file with the same name and choosing Replace keeps the old content here."
      onClose={onClose}
      size="md"
      variant="sheet"
      footer={
        <button type="button" onClick={onClose} className={buttonClass('secondary')}>
          Close
        </button>
      }
    >
      {versions.isPending ? (
        <Spinner label="Loading versions…" />
      ) : versions.isError ? (
        <Alert>{errorText(versions.error)}</Alert>
      ) : versions.data.versions.length === 0 ? (
        <p className="text-sm text-slate-600">No older versions. This file has only ever had its current content.</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-200" aria-label="Older versions">
            {versions.data.versions.map((version) => (
              <li key={version.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
                <span className="min-w-0 flex-1 basis-40">
                  <span className="block font-medium text-slate-900">
                    {new Date(version.createdAt).toLocaleString()}
                  </span>
                  <span className="block text-sm text-slate-600">
                    {formatBytes(version.size)}
                    {version.uploadedBy ? ` · uploaded by ${version.uploadedBy.name}` : ''}
                  </span>
                </span>
                <span className="flex gap-2">
                  <a
                    href={versionUrl(target.id, version.id)}
                    download={target.name}
                    className={buttonClass('secondary')}
                    aria-label={`Download the version of ${new Date(version.createdAt).toLocaleString()}`}
                  >
                    <Download aria-hidden="true" className="size-4" />
                    Download
                  </a>
                  {canWrite && (
                    <button
                      type="button"
                      disabled={restore.isPending}
                      onClick={() =>
                        restore.mutate(version.id, {
                          onSuccess: () => showToast('success', `Restored an older version of ${target.name}.`),
                          onError: (error) => showToast('error', errorText(error) ?? 'Could not restore it.'),
                        })
                      }
                      aria-label={`Restore the version of ${new Date(version.createdAt).toLocaleString()}`}
                      className={buttonClass('secondary')}
                    >
                      <RotateCcw aria-hidden="true" className="size-4" />
                      Restore
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-xs text-slate-500">
            The newest {versions.data.kept} older versions are kept; they count towards the storage quota.
          </p>
        </>
      )}
    </Dialog>
  );
}
