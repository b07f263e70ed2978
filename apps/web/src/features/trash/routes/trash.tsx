import type { TrashItem } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { FileText, Folder, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEmptyTrash, usePurge, useRestore, useTrash } from '../api/trash-api';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** One space's part of the trash: the personal space (`workspaceId` null) or a workspace. */
interface Group {
  workspaceId: string | null;
  name: string;
  items: TrashItem[];
}

const groupsOf = (items: TrashItem[]): Group[] => {
  const groups = new Map<string, Group>();
  for (const item of items) {
    const key = item.workspaceId ?? '';
    const group = groups.get(key) ?? {
      workspaceId: item.workspaceId,
      name: item.workspaceId === null ? 'Personal' : (item.workspaceName ?? 'Workspace'),
      items: [],
    };
    group.items.push(item);
    groups.set(key, group);
  }
  // The personal trash first, then the workspaces by name.
  return [...groups.values()].sort((a, b) =>
    a.workspaceId === null ? -1 : b.workspaceId === null ? 1 : a.name.localeCompare(b.name),
  );
};

type Confirm = { kind: 'purge'; item: TrashItem } | { kind: 'empty'; group: Group } | null;

/**
 * /dashboard/trash: what the caller deleted (and, for workspaces where they are an editor or owner, what anyone
 * deleted there), newest first, with who deleted it and when it is deleted for good; Restore, Delete forever and
 * Empty trash per space.
 */
export default function TrashPage() {
  useDocumentTitle('Trash');
  const trash = useTrash();
  const restore = useRestore();
  const purge = usePurge();
  const empty = useEmptyTrash();
  const [confirm, setConfirm] = useState<Confirm>(null);

  const onRestore = (item: TrashItem) =>
    restore.mutate(item.id, {
      onSuccess: (restored) =>
        showToast(
          'success',
          restored.toRoot
            ? `Restored ${restored.name} to the top of its space (its folder is gone).`
            : `Restored ${restored.name}.`,
        ),
      onError: (error) => showToast('error', errorText(error) ?? 'Could not restore it.'),
    });

  const onConfirm = () => {
    if (!confirm) return;
    const done = () => setConfirm(null);
    const onError = (error: Error) => {
      showToast('error', errorText(error) ?? 'Could not delete it.');
      done();
    };
    if (confirm.kind === 'purge') {
      const { name } = confirm.item;
      purge.mutate(confirm.item.id, {
        onSuccess: () => {
          showToast('success', `Deleted ${name} for good.`);
          done();
        },
        onError,
      });
    } else {
      empty.mutate(confirm.group.workspaceId, {
        onSuccess: ({ purged }) => {
          showToast('success', purged === 1 ? 'Deleted 1 item for good.' : `Deleted ${purged} items for good.`);
          done();
        },
        onError,
      });
    }
  };

  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Trash</h1>
        <p className="mt-2 text-slate-600">
          Deleted files and folders stay here
          {trash.data ? ` for ${trash.data.retentionDays} days` : ''}, then they are deleted for good. They still count
          towards your storage until then.
        </p>
      </header>
      {trash.isPending ? (
        <Spinner label="Loading the trash…" />
      ) : trash.isError ? (
        <Alert>{errorText(trash.error)}</Alert>
      ) : trash.data.items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <Trash2 aria-hidden="true" className="mx-auto size-8 text-slate-400" />
          <p className="mt-2 font-medium text-slate-900">The trash is empty.</p>
          <p className="mt-1 text-sm text-slate-600">
            When you delete a file or a folder, it comes here first, so you can restore it.
          </p>
        </div>
      ) : (
        groupsOf(trash.data.items).map((group) => (
          <div key={group.workspaceId ?? 'personal'} className="space-y-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-lg font-semibold text-slate-900">{group.name}</h2>
              <button
                type="button"
                onClick={() => setConfirm({ kind: 'empty', group })}
                aria-label={`Empty the trash of ${group.name}`}
                className={buttonClass('secondary')}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                Empty trash
              </button>
            </div>
            <ul className="space-y-2" aria-label={`Trash of ${group.name}`}>
              {group.items.map((item) => (
                <li
                  key={item.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-slate-200 bg-white px-4 py-3"
                >
                  {item.kind === 'folder' ? (
                    <Folder aria-hidden="true" className="size-5 shrink-0 text-brand-600" />
                  ) : (
                    <FileText aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
                  )}
                  <span className="min-w-0 flex-1 basis-48">
                    <span className="block truncate font-medium text-slate-900" title={item.name}>
                      {item.name}
                    </span>
                    <span className="block text-sm text-slate-600">
                      {item.kind === 'folder'
                        ? `Folder · ${item.fileCount === 1 ? '1 file' : `${item.fileCount} files`} · ${formatBytes(item.size)}`
                        : formatBytes(item.size)}
                      {' · '}Deleted {item.trashedBy ? `by ${item.trashedBy.name} ` : ''}on {day(item.trashedAt)}
                    </span>
                    <span className="block text-xs text-slate-500">Deleted for good on {day(item.purgeAt)}</span>
                  </span>
                  <span className="flex gap-2">
                    <button
                      type="button"
                      onClick={() => onRestore(item)}
                      disabled={restore.isPending && restore.variables === item.id}
                      aria-label={`Restore ${item.name}`}
                      className={buttonClass('secondary')}
                    >
                      <RotateCcw aria-hidden="true" className="size-4" />
                      Restore
                    </button>
                    <button
                      type="button"
                      onClick={() => setConfirm({ kind: 'purge', item })}
                      aria-label={`Delete ${item.name} forever`}
                      className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-600"
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                      Delete forever
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === 'empty' ? `Empty the trash of ${confirm.group.name}?` : 'Delete forever?'}
        message={
          confirm?.kind === 'empty'
            ? `${confirm.group.items.length === 1 ? 'The item' : `All ${confirm.group.items.length} items`} in this trash will be deleted for good. This cannot be undone.`
            : confirm?.kind === 'purge'
              ? `“${confirm.item.name}”${confirm.item.kind === 'folder' ? ' and everything inside it' : ''} will be deleted for good. This cannot be undone.`
              : ''
        }
        confirmLabel={confirm?.kind === 'empty' ? 'Empty trash' : 'Delete forever'}
        busy={purge.isPending || empty.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={onConfirm}
      />
    </section>
  );
}
