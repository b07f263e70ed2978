import type { Space } from '@atrium/contracts';
import { ChevronRight, Folder } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useFolderChoices, useUpdateFile, useUpdateFolder } from '../api/spaces-api';
import { roleIn } from '../lib/browser-logic';
import type { EntryTarget } from './entry-list';

export interface MoveDialogProps {
  target: EntryTarget;
  /** The space the entry is in; folders move only inside it. */
  space: Space;
  /** Every space of the caller: a file may move into any one they can write to. */
  spaces: readonly Space[];
  /** The folder the entry is in now (the picker starts there). */
  currentFolderId: string;
  onClose: () => void;
}

/** A folder picker: choose a space (files only), walk its folders, and move the entry into the open one. */
export function MoveDialog({ target, space, spaces, currentFolderId, onClose }: MoveDialogProps) {
  const selectId = useId();
  const writable = spaces.filter((candidate) => roleIn(candidate) !== 'viewer');
  const [spaceRoot, setSpaceRoot] = useState(space.rootFolderId);
  const [folderId, setFolderId] = useState(currentFolderId);
  const choices = useFolderChoices(folderId);
  const moveFile = useUpdateFile();
  const moveFolder = useUpdateFolder();
  const mutation = target.kind === 'file' ? moveFile : moveFolder;

  const submit = () => {
    const done = { onSuccess: onClose };
    if (target.kind === 'file') moveFile.mutate({ id: target.id, folderId }, done);
    else moveFolder.mutate({ id: target.id, parentId: folderId }, done);
  };

  const listing = choices.data;
  const rootName = (id: string) => spaces.find((candidate) => candidate.rootFolderId === id)?.name ?? 'Top';
  const subfolders = (listing?.folders ?? []).filter((folder) => folder.id !== target.id);
  return (
    <Dialog
      open
      title={`Move “${target.name}”`}
      description="Open the folder to move it into, then choose Move here."
      onClose={onClose}
      footer={
        <>
          <button type="button" onClick={onClose} className={buttonClass('secondary')}>
            Cancel
          </button>
          <button
            type="button"
            onClick={submit}
            disabled={mutation.isPending || !listing || folderId === target.id || folderId === currentFolderId}
            className={buttonClass('primary')}
          >
            Move here
          </button>
        </>
      }
    >
      {target.kind === 'file' && writable.length > 1 && (
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
        <p role="alert" className="text-sm text-red-700">
          {choices.error.message}
        </p>
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
      {mutation.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {errorText(mutation.error)}
        </p>
      )}
    </Dialog>
  );
}
