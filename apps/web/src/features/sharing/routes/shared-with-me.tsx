import { formatBytes } from '@atrium/contracts/format-bytes';
import { Download, Eye, FileText, Folder, Share2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { PAGES } from '@atrium/contracts/pages';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useShareAction, type ShareRequest } from '../../../lib/share-action';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSharedWithMe } from '../api/sharing-api';
import { ROLE_LABELS, errorText } from '../components/sharing-texts';
import { downloadUrl } from '../../../lib/file-urls';
import { VIEWER_OPENED_STATE, viewerHref } from '../../../lib/viewer-link';
import { rememberViewerList } from '../../../lib/viewer-list';
import { folderRoute } from '../routes-config';

const sharedLine = (sharedBy: string | null, sharedAt: string) =>
  `${sharedBy ? `Shared by ${sharedBy}` : 'Shared with you'} · ${new Date(sharedAt).toLocaleDateString()}`;

const rowClass = 'flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-slate-200 bg-white px-4 py-3';

/** Editors may share what was shared with them further (the server checks it again). */
function ShareButton({ role, target }: { role: 'viewer' | 'editor'; target: ShareRequest }): ReactNode {
  const share = useShareAction();
  if (!share || role !== 'editor') return null;
  return (
    <button
      type="button"
      onClick={() => share(target)}
      aria-label={`Share ${target.name}`}
      className="inline-flex items-center gap-1 rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <Share2 aria-hidden="true" className="size-4" />
      Share
    </button>
  );
}

/** One heading and list of shared items (folders, or files). */
function SharedList({ title, label, children }: { title: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <ul className="space-y-2" aria-label={label}>
        {children}
      </ul>
    </div>
  );
}

interface SharedRowProps {
  icon: ReactNode;
  name: ReactNode;
  /** The line under the name: who shared it and when (and a file's size). */
  detail: string;
  role: 'viewer' | 'editor';
  target: ShareRequest;
  /** Further actions after Share (a file's Download). */
  children?: ReactNode;
}

/** A shared item: icon, name and detail line, the caller's role, Share (for editors) and further actions. */
function SharedRow({ icon, name, detail, role, target, children }: SharedRowProps) {
  return (
    <li className={rowClass}>
      {icon}
      <span className="min-w-0 flex-1">
        {name}
        <span className="block text-sm text-slate-600">{detail}</span>
      </span>
      <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">
        {ROLE_LABELS[role]}
      </span>
      <ShareButton role={role} target={target} />
      {children}
    </li>
  );
}

/** /dashboard/shared: the files and folders others shared with the caller, with who shared them and the role. */
export default function SharedWithMePage() {
  useDocumentTitle('Shared with me');
  const shared = useSharedWithMe();
  const rememberShared = () =>
    rememberViewerList((shared.data?.files ?? []).map((file) => ({ id: file.id, name: file.fileName })));
  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Shared with me</h1>
        <p className="mt-2 text-slate-600">Files and folders that people and workspaces shared with you.</p>
      </header>
      {shared.isPending ? (
        <Spinner label="Loading what was shared with you…" />
      ) : shared.isError ? (
        <Alert>{errorText(shared.error)}</Alert>
      ) : shared.data.files.length === 0 && shared.data.folders.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <p className="font-medium text-slate-900">Nothing is shared with you yet.</p>
          <p className="mt-1 text-sm text-slate-600">
            When someone shares a file or a folder with you, it shows up here and you get a notification.
          </p>
        </div>
      ) : (
        <>
          {shared.data.folders.length > 0 && (
            <SharedList title="Folders" label="Shared folders">
              {shared.data.folders.map((folder) => (
                <SharedRow
                  key={folder.id}
                  icon={<Folder aria-hidden="true" className="size-5 shrink-0 text-brand-600" />}
                  name={
                    <Link
                      to={folderRoute(folder.id)}
                      className="block truncate font-medium text-slate-900 hover:text-brand-700 hover:underline"
                    >
                      {folder.name}
                    </Link>
                  }
                  detail={sharedLine(folder.sharedBy, folder.sharedAt)}
                  role={folder.role}
                  target={{ kind: 'folder', id: folder.id, name: folder.name }}
                />
              ))}
            </SharedList>
          )}
          {shared.data.files.length > 0 && (
            <SharedList title="Files" label="Shared files">
              {shared.data.files.map((file) => (
                <SharedRow
                  key={file.id}
                  icon={<FileText aria-hidden="true" className="size-5 shrink-0 text-slate-500" />}
                  name={
                    // Opens the file viewer over this page; Previous / Next step through the shared files.
                    <Link
                      to={viewerHref(file.id, PAGES.shared.path)}
                      state={VIEWER_OPENED_STATE}
                      onClick={rememberShared}
                      className="block truncate font-medium text-slate-900 hover:text-brand-700 hover:underline"
                    >
                      {file.fileName}
                    </Link>
                  }
                  detail={`${formatBytes(file.size)} · ${sharedLine(file.sharedBy, file.sharedAt)}`}
                  role={file.role}
                  target={{ kind: 'file', id: file.id, name: file.fileName }}
                >
                  <Link
                    to={viewerHref(file.id, PAGES.shared.path)}
                    state={VIEWER_OPENED_STATE}
                    onClick={rememberShared}
                    aria-label={`Open ${file.fileName}`}
                    className="inline-flex items-center gap-1 rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
                  >
                    <Eye aria-hidden="true" className="size-4" />
                    Open
                  </Link>
                  <a
                    // The private download route: the policies let share recipients through.
                    href={downloadUrl(file.id)}
                    download={file.fileName}
                    aria-label={`Download ${file.fileName}`}
                    className="inline-flex items-center gap-1 rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
                  >
                    <Download aria-hidden="true" className="size-4" />
                    Download
                  </a>
                </SharedRow>
              ))}
            </SharedList>
          )}
        </>
      )}
    </section>
  );
}
