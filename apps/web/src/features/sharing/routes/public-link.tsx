// /s/:token: the public page of a link, for anyone who has it (no sign-in). zod-free: see api/public-link-api.ts.
import type { PublicLink } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { LINK_TEXTS } from '@atrium/contracts/texts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Archive, Download, Expand, Eye, FileText, Folder, Lock, Upload } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { LoadMore, type PagedQuery } from '../../../components/ui/load-more';
import { Logo } from '../../../components/ui/logo';
import { MediaPreview } from '../../../components/ui/media-preview';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-error';
import { checkedDownloadClick } from '../../../lib/checked-download';
import { RequestCancelledError } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNoindexPage } from '../../../lib/use-page-meta';
import { openedInApp, VIEWER_OPENED_STATE, VIEWER_PARAM } from '../../../lib/viewer-link';
import { getPublicLink, publicLinkUrls, unlockLink, uploadToLink } from '../api/public-link-api';
import { PublicFileViewer, type PublicViewerFile } from '../components/public-file-viewer';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; link: PublicLink }
  | { kind: 'locked' }
  | { kind: 'gone'; message: string }
  | { kind: 'error'; message: string };

const KNOWN_TEXTS: readonly string[] = Object.values(LINK_TEXTS);

/** What the page says of a link that answered 404 or 410: the server's LINK_TEXTS message, else by its code. */
export function goneMessage(status: number, code: string, message: string): string {
  if (KNOWN_TEXTS.includes(message)) return message;
  if (status === 410 && /EXPIRED/i.test(code)) return LINK_TEXTS.expired;
  if (status === 410 && /USED_UP|LIMIT|EXHAUSTED/i.test(code)) return LINK_TEXTS.usedUp;
  return LINK_TEXTS.revoked;
}

/** Folds the pages "Show more" fetched into one link: the folder's entries in order, its details from the last. */
function joinPages(first: PublicLink, more: readonly PublicLink[]): PublicLink {
  return more.reduce<PublicLink>(
    (link, page) =>
      link.folder && page.folder
        ? {
            ...link,
            folder: {
              ...page.folder,
              folders: [...link.folder.folders, ...page.folder.folders],
              files: [...link.folder.files, ...page.folder.files],
            },
          }
        : link,
    first,
  );
}

/**
 * The link (the folder shown, `folderId`), a page at a time. Each visit of a folder asks the server afresh for its
 * first page (`gcTime: 0`: the page counts and the link's limits are the server's), the folder shown stays until the
 * next one arrives, and a failure shows at once (a 401 asks for the password; no retries).
 */
function usePublicLink(token: string, folderId: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: ['public-link', token, folderId ?? null] as const,
    queryFn: ({ pageParam, signal }) => getPublicLink(token, { folderId, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.folder?.nextCursor || undefined,
    placeholderData: keepPreviousData,
    gcTime: 0,
    retry: false,
  });
  const [first, ...more] = query.data?.pages ?? [];
  let state: State;
  if (query.isError) state = failure(query.error);
  else if (!first) state = { kind: 'loading' };
  else {
    const link = joinPages(first, more);
    state = link.locked ? { kind: 'locked' } : { kind: 'ready', link };
  }
  return { state, reload: () => query.refetch(), pages: query };
}

function failure(error: unknown): State {
  if (isApiError(error) && error.status === 401) return { kind: 'locked' };
  if (isApiError(error) && (error.status === 404 || error.status === 410))
    return { kind: 'gone', message: goneMessage(error.status, error.code, error.message) };
  return { kind: 'error', message: isApiError(error) ? error.message : 'Could not open this link.' };
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl items-center px-4 py-3">
          <RouterLink to="/" className="inline-flex items-center gap-2 rounded-md font-bold text-slate-900">
            <Logo />
            <span>Atrium</span>
          </RouterLink>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="py-6 text-center text-xs text-slate-500">
        Shared with Atrium, the self-hostable team workspace.
      </footer>
    </div>
  );
}

const card = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6';

function PasswordForm({ token, onUnlocked }: { token: string; onUnlocked: () => void }) {
  const inputId = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  return (
    <form
      className={`${card} mx-auto max-w-md space-y-4`}
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        setProblem('');
        unlockLink(token, password)
          .then(onUnlocked)
          .catch((error: unknown) =>
            setProblem(
              isApiError(error) && error.status === 401
                ? LINK_TEXTS.wrongPassword
                : isApiError(error)
                  ? error.message
                  : 'Could not check the password.',
            ),
          )
          .finally(() => setBusy(false));
      }}
    >
      <div className="flex items-center gap-3">
        <Lock aria-hidden="true" className="size-6 text-brand-600" />
        <h1 className="text-xl font-semibold">{LINK_TEXTS.locked}</h1>
      </div>
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id={inputId}
          type="password"
          required
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={problem ? true : undefined}
          className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
        />
      </div>
      {problem && <Alert>{problem}</Alert>}
      <button type="submit" disabled={busy || password === ''} className={buttonClass('primary')}>
        {busy ? 'Checking…' : 'Open'}
      </button>
    </form>
  );
}

/**
 * What the page previews: images, audio, video, PDF and text, loaded inline (`?inline=1`). A preview fetches the
 * bytes, which the server counts as a download, so it loads only when asked for.
 */
export const previewable = (type: string) =>
  /^(image|audio|video|text)\//.test(type) || type === 'application/json' || type === 'application/pdf';

/** Hears a download the server refused (docs/PRODUCT.md#stale-downloads). */
type OnDownloadFailed = (error: unknown) => void;

/** The id the viewer's address gives the one file of a file link (`?file=link`). */
export const FILE_LINK_VIEWER_ID = 'link';

function FileView({
  token,
  file,
  onDownloadFailed,
  onView,
}: {
  token: string;
  file: NonNullable<PublicLink['file']>;
  onDownloadFailed: OnDownloadFailed;
  onView: (fileId: string) => void;
}) {
  const [preview, setPreview] = useState(false);
  return (
    <article className={`${card} space-y-4`}>
      <div className="flex flex-wrap items-start gap-3">
        <FileText aria-hidden="true" className="mt-1 size-6 shrink-0 text-slate-500" />
        <div className="min-w-0 flex-1 basis-56">
          <h1 className="break-words text-xl font-semibold">{file.fileName}</h1>
          <p className="text-sm text-slate-600">
            {formatBytes(file.size)} · {file.contentType}
          </p>
        </div>
        <a
          href={publicLinkUrls.download(token)}
          download={file.fileName}
          onClick={checkedDownloadClick(file.fileName, onDownloadFailed)}
          className={buttonClass('primary')}
        >
          <Download aria-hidden="true" className="size-4" /> Download
        </a>
      </div>
      {previewable(file.contentType) &&
        (preview ? (
          <MediaPreview
            src={publicLinkUrls.download(token, true)}
            contentType={file.contentType}
            fileName={file.fileName}
          />
        ) : (
          <div className="flex flex-wrap gap-2">
            <button type="button" onClick={() => setPreview(true)} className={buttonClass('secondary')}>
              <Eye aria-hidden="true" className="size-4" /> Show preview
            </button>
            <button type="button" onClick={() => onView(FILE_LINK_VIEWER_ID)} className={buttonClass('secondary')}>
              <Expand aria-hidden="true" className="size-4" /> Open in viewer
            </button>
          </div>
        ))}
    </article>
  );
}

function FolderView({
  token,
  folder,
  onOpen,
  onView,
  pages,
  onDownloadFailed,
}: {
  token: string;
  folder: NonNullable<PublicLink['folder']>;
  onOpen: (folderId: string | undefined) => void;
  /** Opens a file in the read-only viewer. */
  onView: (fileId: string) => void;
  pages: PagedQuery;
  onDownloadFailed: OnDownloadFailed;
}) {
  const empty = folder.files.length === 0 && folder.folders.length === 0;
  const atTop = folder.path.length <= 1;
  const linkClass =
    'rounded font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';
  return (
    <article className={`${card} space-y-4`}>
      {!atTop && (
        <nav aria-label="Breadcrumbs">
          <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
            {folder.path.map((crumb, index) => (
              <li key={crumb.id} className="flex items-center gap-1">
                {index > 0 && <span aria-hidden="true">/</span>}
                {index === folder.path.length - 1 ? (
                  <span aria-current="page" className="font-medium text-slate-900">
                    {crumb.name}
                  </span>
                ) : (
                  <button
                    type="button"
                    onClick={() => onOpen(index === 0 ? undefined : crumb.id)}
                    className={linkClass}
                  >
                    {crumb.name}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div className="flex flex-wrap items-start gap-3">
        <Folder aria-hidden="true" className="mt-1 size-6 shrink-0 text-brand-600" />
        <div className="min-w-0 flex-1 basis-56">
          <h1 className="break-words text-xl font-semibold">{folder.name}</h1>
          <p className="text-sm text-slate-600">
            {folder.files.length} {folder.files.length === 1 ? 'file' : 'files'}
            {folder.folders.length > 0 &&
              ` · ${folder.folders.length} ${folder.folders.length === 1 ? 'folder' : 'folders'}`}
            {folder.nextCursor && ' shown'}
          </p>
        </div>
        {atTop && !empty && (
          <a
            href={publicLinkUrls.zip(token)}
            download={`${folder.name}.zip`}
            onClick={checkedDownloadClick(`${folder.name}.zip`, onDownloadFailed)}
            className={buttonClass('primary')}
          >
            <Archive aria-hidden="true" className="size-4" /> Download all (zip)
          </a>
        )}
      </div>
      {empty ? (
        <p className="text-sm text-slate-600">This folder is empty.</p>
      ) : (
        <ul aria-label="Contents" className="divide-y divide-slate-100">
          {folder.folders.map((sub) => (
            <li key={sub.id} className="flex items-center gap-3 py-2 text-sm">
              <Folder aria-hidden="true" className="size-4 shrink-0 text-brand-600" />
              <button
                type="button"
                onClick={() => onOpen(sub.id)}
                className={`min-w-0 flex-1 truncate text-left ${linkClass}`}
              >
                {sub.name}
              </button>
            </li>
          ))}
          {folder.files.map((file) => (
            <li key={file.id} className="flex items-center gap-3 py-2 text-sm">
              <FileText aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{file.fileName}</span>
                <span className="block text-slate-600">{formatBytes(file.size)}</span>
              </span>
              <button
                type="button"
                onClick={() => onView(file.id)}
                aria-label={`Open ${file.fileName}`}
                className="inline-flex shrink-0 items-center gap-1 rounded-lg px-2 py-1 font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <Expand aria-hidden="true" className="size-4" />
                Open
              </button>
              <a
                href={publicLinkUrls.folderFile(token, file.id)}
                download={file.fileName}
                onClick={checkedDownloadClick(file.fileName, onDownloadFailed)}
                aria-label={`Download ${file.fileName}`}
                className="inline-flex shrink-0 items-center gap-1 rounded-lg px-2 py-1 font-medium text-brand-700 hover:bg-brand-50"
              >
                <Download aria-hidden="true" className="size-4" />
                Download
              </a>
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={pages} label="Show more" />
    </article>
  );
}

type Sent = { name: string; state: 'sending' | 'done' | 'failed'; percent: number; message?: string };

function DropView({ token, sharedBy }: { token: string; sharedBy: string | undefined }) {
  const inputId = useId();
  const [sent, setSent] = useState<Sent[]>([]);
  const [dragging, setDragging] = useState(false);
  const update = (index: number, patch: Partial<Sent>) =>
    setSent((list) => list.map((item, at) => (at === index ? { ...item, ...patch } : item)));

  const send = async (files: File[]) => {
    const start = sent.length;
    setSent((list) => [...list, ...files.map((file) => ({ name: file.name, state: 'sending' as const, percent: 0 }))]);
    for (const [offset, file] of files.entries()) {
      const index = start + offset;
      try {
        await uploadToLink(token, file, {
          onProgress: ({ loaded, total }) => update(index, { percent: total ? Math.round((loaded / total) * 100) : 0 }),
        });
        update(index, { state: 'done', percent: 100 });
      } catch (error) {
        update(index, {
          state: 'failed',
          message:
            error instanceof RequestCancelledError
              ? error.message
              : isApiError(error)
                ? error.message
                : 'The upload failed.',
        });
      }
    }
  };

  return (
    <article className={`${card} space-y-4`}>
      <div className="flex items-center gap-3">
        <Upload aria-hidden="true" className="size-6 text-brand-600" />
        <h1 className="text-xl font-semibold">Upload files</h1>
      </div>
      {sharedBy && <p className="font-medium text-slate-900">{sharedBy} asks you for files.</p>}
      <p className="text-sm text-slate-600">
        Files you upload here go to the person who shared this link. You cannot see the folder&apos;s other files.
      </p>
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          const files = [...event.dataTransfer.files];
          if (files.length > 0) void send(files);
        }}
        className={`rounded-xl border-2 border-dashed p-6 text-center ${dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300'}`}
      >
        <p className="text-sm text-slate-700">Drag files here, or</p>
        <input
          id={inputId}
          type="file"
          multiple
          // The input is hidden; its label shows the keyboard focus (docs/PRODUCT.md#sharing-screens-web).
          className="peer sr-only"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            if (files.length > 0) void send(files);
          }}
        />
        <label
          htmlFor={inputId}
          className={`${buttonClass('primary')} mt-3 cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600`}
        >
          Choose files
        </label>
      </div>
      {sent.length > 0 && (
        <ul aria-label="Uploads" aria-live="polite" className="divide-y divide-slate-100 text-sm">
          {sent.map((item, index) => (
            <li key={`${item.name}-${index}`} className="flex items-center gap-3 py-2">
              <span className="min-w-0 flex-1 truncate font-medium">{item.name}</span>
              <span
                className={`shrink-0 ${item.state === 'failed' ? 'text-red-700' : item.state === 'done' ? 'text-green-700' : 'text-slate-600'}`}
              >
                {item.state === 'sending' ? `${item.percent}%` : item.state === 'done' ? 'Uploaded' : item.message}
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/** The public page of a link: a file with preview, a folder listing, a file-drop upload, or why it cannot open. */
export default function PublicLinkPage() {
  const { token = '' } = useParams();
  // A folder below the link's folder is `?folder=<id>`, so Back and reload keep the place.
  const [search, setSearch] = useSearchParams();
  const folderId = search.get('folder') ?? undefined;
  const { state, reload, pages } = usePublicLink(token, folderId);
  const openFolder = (id: string | undefined) => setSearch(id ? { folder: id } : {});
  // A refused download (used up, revoked, expired meanwhile): the server's message, and the link asked again.
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const onDownloadFailed = (error: unknown) => {
    setDownloadError(
      isApiError(error) && (error.status === 404 || error.status === 410)
        ? goneMessage(error.status, error.code, error.message)
        : isApiError(error)
          ? error.message
          : 'The download failed.',
    );
    void reload();
  };
  // The read-only file viewer is `?file=<id>` (`?file=link` for a file link), so Back and reload keep it.
  const location = useLocation();
  const navigate = useNavigate();
  const viewing = search.get(VIEWER_PARAM);
  const view = (fileId: string, replace = false) => {
    const next = new URLSearchParams(search);
    next.set(VIEWER_PARAM, fileId);
    setSearch(next, replace ? { replace, state: location.state } : { state: VIEWER_OPENED_STATE });
  };
  const closeViewer = () => {
    if (openedInApp(location.state)) void navigate(-1);
    else {
      const next = new URLSearchParams(search);
      next.delete(VIEWER_PARAM);
      setSearch(next, { replace: true });
    }
  };
  useNoindexPage();
  useDocumentTitle(
    state.kind === 'ready'
      ? state.link.allowUpload
        ? 'Upload files'
        : (state.link.file?.fileName ?? state.link.folder?.name ?? 'Shared link')
      : 'Shared link',
  );

  let body: ReactNode;
  if (state.kind === 'loading') body = <Spinner label="Opening the link…" />;
  else if (state.kind === 'locked') body = <PasswordForm token={token} onUnlocked={() => void reload()} />;
  else if (state.kind === 'gone' || state.kind === 'error')
    body = (
      <div className={`${card} mx-auto max-w-md text-center`}>
        <h1 className="text-xl font-semibold">{state.message}</h1>
        <p className="mt-2 text-sm text-slate-600">Ask the person who shared it for a new link.</p>
      </div>
    );
  else if (state.link.allowUpload) body = <DropView token={token} sharedBy={state.link.sharedBy} />;
  else if (state.link.kind === 'file' && state.link.file)
    body = <FileView token={token} file={state.link.file} onDownloadFailed={onDownloadFailed} onView={view} />;
  else if (state.link.folder)
    body = (
      <FolderView
        token={token}
        folder={state.link.folder}
        onOpen={openFolder}
        onView={view}
        pages={pages}
        onDownloadFailed={onDownloadFailed}
      />
    );
  else body = <p className="text-sm text-slate-600">This link has nothing to show.</p>;

  const viewerFiles = state.kind === 'ready' && !state.link.allowUpload ? viewableFiles(token, state.link) : null;
  return (
    <Shell>
      {downloadError && state.kind === 'ready' && (
        <Alert variant="box" className="mb-4">
          {downloadError}
        </Alert>
      )}
      {body}
      {viewing && viewerFiles && (
        <PublicFileViewer
          files={viewerFiles}
          fileId={viewing}
          onClose={closeViewer}
          onOpen={(fileId) => view(fileId, true)}
        />
      )}
    </Shell>
  );
}

/** The files of a link the read-only viewer shows: the file of a file link, or the files of the folder shown. */
function viewableFiles(token: string, link: PublicLink): PublicViewerFile[] {
  if (link.kind === 'file' && link.file)
    return [
      {
        ...link.file,
        id: FILE_LINK_VIEWER_ID,
        src: publicLinkUrls.download(token, true),
        downloadHref: publicLinkUrls.download(token),
      },
    ];
  return (link.folder?.files ?? []).map((file) => ({
    ...file,
    src: publicLinkUrls.folderFile(token, file.id, true),
    downloadHref: publicLinkUrls.folderFile(token, file.id),
  }));
}
