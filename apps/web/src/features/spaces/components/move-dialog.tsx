import type { Space } from '@atrium/contracts';
import { ChevronRight, Folder } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useChangeBack, useFolderChoices, useUpdateFile, useUpdateFolder } from '../api/spaces-api';
import { roleIn } from '../lib/browser-logic';
import type { EntryTarget } from './entry-list';
import { showUndoToast } from '../../../lib/undo-toast';

export interface MoveDialogProps {
  /** What moves: one entry (a row's menu) or several (the bulk bar). */
  targets: EntryTarget[];
  /** The space the entry is in; folders move only inside it. */
  space: Space;
  /** Every space of the caller: a file may move into any one they can write to. */
  spaces: readonly Space[];
  /** The folder the entry is in now (the picker starts there). */
  currentFolderId: string;
  onClose: () => void;
}

/**
 * A folder picker: choose a space (files only), walk its folders, and move the entries into the open one. Each
 * entry moves through its own request (the server checks each); a failure names how many did not move. A move
 * answers with a toast whose Undo moves everything back to the folder it came from.
 */
export function MoveDialog({ targets, space, spaces, currentFolderId, onClose }: MoveDialogProps) {
  const selectId = useId();
  const writable = spaces.filter((candidate) => roleIn(candidate) !== 'viewer');
  const [spaceRoot, setSpaceRoot] = useState(space.rootFolderId);
  const [folderId, setFolderId] = useState(currentFolderId);
  const choices = useFolderChoices(folderId);
  const moveFile = useUpdateFile();
  const moveFolder = useUpdateFolder();
  const changeBack = useChangeBack();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onlyFiles = targets.every((target) => target.kind === 'file');
  const movingIds = new Set(targets.map((target) => target.id));
  const [first] = targets;

  const submit = async () => {
    setBusy(true);
    setError(null);
    const results = await Promise.allSettled(
      targets.map((target) =>
        target.kind === 'file'
          ? moveFile.mutateAsync({ id: target.id, folderId })
          : moveFolder.mutateAsync({ id: target.id, parentId: folderId }),
      ),
    );
    setBusy(false);
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    if (failures.length === 0) {
      onClose();
      const what = targets.length === 1 && first ? first.name : `${targets.length} items`;
      showUndoToast({
        id: `move:${targets.map((target) => target.id).join(',')}`,
        text: `Moved ${what} to ${destinationName}.`,
        undoLabel: `Undo: move ${what} back`,
        undo: () => changeBack(targets.map(({ kind, id }) => ({ kind, id, folderId: currentFolderId }))),
        undone: `Moved ${what} back.`,
      });
    } else {
      const reason = errorText(failures[0]) ?? 'It could not be moved.';
      setError(targets.length === 1 ? reason : `${failures.length} of ${targets.length} could not be moved: ${reason}`);
    }
  };

  const listing = choices.data;
  const rootName = (id: string) => spaces.find((candidate) => candidate.rootFolderId === id)?.name ?? 'Top';
  const subfolders = (listing?.folders ?? []).filter((folder) => !movingIds.has(folder.id));
  const here = listing?.path.at(-1);
  const destinationName = !here ? '' : listing?.path.length === 1 ? rootName(here.id) : here.name;
  return (
    <Dialog
      open
      title={targets.length === 1 && first ? `Move “${first.name}”` : `Move ${targets.length} items`}
      description="Open the folder to move it into, then choose Move here."
      onClose={onClose}
      footer={
        <>
          <button type="button" onClick={onClose} className={buttonClass('secondary')}>
            Cancel
          </button>
          <button
            type="button"
            onClick={() => void submit()}
            disabled={busy || !listing || movingIds.has(folderId) || folderId === currentFolderId}
            className={buttonClass('primary')}
          >
            Move here
          </button>
        </>
      }
    >
      {onlyFiles && writable.length > 1 && (
        <div className="mb-3">
          <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">
            Space
          </label>
          <select
            id={selectId}
            value={spaceRoot}
            onChange={(event) => {
              setSpaceRoot(event.target.value);
              setFolderId(event.target.value);
            }}
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {writable.map((candidate) => (
              <option key={candidate.rootFolderId} value={candidate.rootFolderId}>
                {candidate.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <nav aria-label="Destination" className="mb-2 text-sm">
        <ol className="flex flex-wrap items-center gap-1">
          {(listing?.path ?? []).map((crumb, index, path) => (
            <li key={crumb.id} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight className="size-3 shrink-0 text-slate-400" aria-hidden="true" />}
              {index === path.length - 1 ? (
                <span aria-current="location" className="truncate font-semibold text-slate-900">
                  {index === 0 ? rootName(crumb.id) : crumb.name}
                </span>
              ) : (
                <button
                  type="button"
                  onClick={() => setFolderId(crumb.id)}
                  className="truncate rounded text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {index === 0 ? rootName(crumb.id) : crumb.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {choices.isPending ? (
        <Spinner label="Loading folders…" />
      ) : choices.isError ? (
        <Alert>{choices.error.message}</Alert>
      ) : (
        <ul
          aria-label="Folders"
          className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
        >
          {subfolders.length === 0 && <li className="px-3 py-2 text-sm text-slate-600">No folders inside.</li>}
          {subfolders.map((folder) => (
            <li key={folder.id}>
              <button
                type="button"
                onClick={() => setFolderId(folder.id)}
                className="flex w-full min-w-0 items-center gap-2 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <Folder className="size-4 shrink-0 text-brand-600" aria-hidden="true" />
                <span className="truncate">{folder.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <Alert className="mt-3">{error}</Alert>}
    </Dialog>
  );
}
