import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSpaces } from '../api/spaces-api';
import { FileBrowser } from '../components/file-browser';
import { findSpace, type SpaceRef } from '../lib/browser-logic';

/**
 * `/dashboard/spaces/personal/folders/:folderId?` and `/dashboard/spaces/:workspaceId/folders/:folderId?`: the
 * file browser of one space. The app layer passes a toolbar (the search box) in (features never import each other);
 * Share opens the dialog through lib/share-action.ts, as everywhere.
 */
export function SpaceFolderPage({ toolbar }: { toolbar?: ReactNode }) {
  const { workspaceId, folderId } = useParams();
  const spaces = useSpaces();
  const ref: SpaceRef = workspaceId ? { kind: 'workspace', id: workspaceId } : { kind: 'personal' };
  const space = spaces.data ? findSpace(spaces.data, ref) : undefined;
  useDocumentTitle(space?.name ?? 'Files');

  let body;
  if (spaces.isPending) body = <Spinner label="Loading spaces…" />;
  else if (spaces.isError) {
    body = <Alert>{spaces.error.message}</Alert>;
  } else if (!space) {
    body = (
      <div role="alert" className="rounded-xl border border-slate-200 bg-white p-6">
        <h1 className="text-lg font-semibold text-slate-900">Workspace not found</h1>
        <p className="mt-1 text-sm text-slate-600">It does not exist, or you are not a member of it.</p>
      </div>
    );
  } else {
    body = <FileBrowser key={space.rootFolderId} space={space} spaces={spaces.data} folderId={folderId} />;
  }
  return (
    <section className="mx-auto max-w-5xl space-y-4 px-4 py-8">
      {toolbar}
      {body}
    </section>
  );
}
