import type { CreateLinkRequest, Link } from '@atrium/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useLocation } from 'react-router';
import { Link2 } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { linkAddress, linksQueryOptions, useLinkMutations, type ShareTarget } from '../api/sharing-api';
import { errorText } from './sharing-texts';
import { CopyButton } from '../../../components/ui/copy-button';
import { VIEWER_OPENED_STATE, viewerHref } from '../../../lib/viewer-link';

const fieldClass =
  'w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600';

/** A labelled field of the new-link form that may stay empty. */
function OptionalField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label} <span className="font-normal text-slate-500">(optional)</span>
      </label>
      {children}
    </div>
  );
}

/** The end of the chosen day (YYYY-MM-DD) in the visitor's time zone, as ISO-8601. */
export const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

/** Today as YYYY-MM-DD (local), the earliest expiry date the picker offers. */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/** "3 downloads", "3 of 10 downloads". */
export const downloadsText = (link: Pick<Link, 'downloads' | 'maxDownloads'>) =>
  link.maxDownloads === null
    ? `${link.downloads} ${link.downloads === 1 ? 'download' : 'downloads'}`
    : `${link.downloads} of ${link.maxDownloads} downloads`;

/** What a file-drop link's row says instead of downloads: "3 files received" (docs/PRODUCT.md#file-drop-links). */
export const receivedText = (count: number) =>
  count === 0 ? 'No files received yet' : `${count} ${count === 1 ? 'file' : 'files'} received`;

/** The newest files that arrived through a drop link, each opening the viewer. */
function RecentArrivals({ recent, onOpen }: { recent: NonNullable<Link['received']>['recent']; onOpen?: () => void }) {
  const location = useLocation();
  if (recent.length === 0) return null;
  return (
    <ul aria-label="Recently received" className="space-y-1 text-sm">
      {recent.map((arrival) => (
        <li key={arrival.fileId} className="min-w-0">
          <RouterLink
            to={viewerHref(arrival.fileId, location.pathname, location.search)}
            state={VIEWER_OPENED_STATE}
            onClick={onOpen}
            className="block truncate text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {arrival.name}
          </RouterLink>
        </li>
      ))}
    </ul>
  );
}

function LinkForm({ target }: { target: ShareTarget }) {
  const ids = { expiry: useId(), password: useId(), limit: useId(), upload: useId() };
  const [expiry, setExpiry] = useState('');
  const [password, setPassword] = useState('');
  const [limit, setLimit] = useState('');
  const [allowUpload, setAllowUpload] = useState(false);
  const [problem, setProblem] = useState('');
  const { create } = useLinkMutations(target);

  return (
    <form
      noValidate
      className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        const body: CreateLinkRequest = target.kind === 'file' ? { fileId: target.id } : { folderId: target.id };
        if (expiry) {
          if (expiry < today()) return setProblem('Choose an expiry date from today on.');
          body.expiresAt = endOfDay(expiry);
        }
        if (password) body.password = password;
        if (limit) {
          const value = Number(limit);
          if (!Number.isInteger(value) || value < 1) return setProblem('The download limit is a whole number from 1.');
          body.maxDownloads = value;
        }
        if (target.kind === 'folder' && allowUpload) body.allowUpload = true;
        setProblem('');
        create.mutate(body, {
          onSuccess: () => {
            setExpiry('');
            setPassword('');
            setLimit('');
            setAllowUpload(false);
          },
        });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <OptionalField id={ids.expiry} label="Expires on">
          <input
            id={ids.expiry}
            type="date"
            min={today()}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            className={fieldClass}
          />
        </OptionalField>
        <OptionalField id={ids.password} label="Password">
          <input
            id={ids.password}
            type="password"
            autoComplete="new-password"
            maxLength={200}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            className={fieldClass}
          />
        </OptionalField>
        <OptionalField id={ids.limit} label="Download limit">
          <input
            id={ids.limit}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
            className={fieldClass}
          />
        </OptionalField>
      </div>
      {target.kind === 'folder' && (
        <div className="flex items-start gap-2">
          <input
            id={ids.upload}
            type="checkbox"
            checked={allowUpload}
            onChange={(event) => setAllowUpload(event.target.checked)}
            className="mt-0.5 size-4 accent-brand-600"
          />
          <label htmlFor={ids.upload} className="text-sm text-slate-700">
            <span className="font-medium">Allow uploads (file drop)</span>
            <span className="block text-slate-600">Visitors can upload files into this folder but cannot see it.</span>
          </label>
        </div>
      )}
      {(problem || create.error) && <Alert>{problem || errorText(create.error)}</Alert>}
      <button type="submit" disabled={create.isPending} className={buttonClass('primary')}>
        <Link2 aria-hidden="true" className="size-4" />
        {create.isPending ? 'Creating…' : 'Create link'}
      </button>
    </form>
  );
}

function LinkRow({
  link,
  onRevoke,
  onOpenFile,
}: {
  link: Link;
  onRevoke: (link: Link) => void;
  onOpenFile?: (() => void) | undefined;
}) {
  const address = linkAddress(link.url);
  const field = useRef<HTMLInputElement>(null);
  const facts = [
    link.allowUpload ? 'File drop' : null,
    link.expiresAt ? `Expires ${new Date(link.expiresAt).toLocaleDateString()}` : 'No expiry',
    link.hasPassword ? 'Password' : null,
    // A drop link counts what arrived; nobody downloads through it.
    link.allowUpload && link.received ? receivedText(link.received.count) : downloadsText(link),
  ].filter(Boolean);
  return (
    <li className="space-y-2 py-3">
      <input
        ref={field}
        readOnly
        value={address}
        aria-label="Link address"
        onFocus={(event) => event.target.select()}
        className="w-full truncate rounded-lg border border-slate-200 bg-slate-50 px-3 py-1.5 font-mono text-xs text-slate-700"
      />
      {link.suspended && (
        <p className="text-sm font-medium text-amber-800">
          Suspended: {link.createdBy ?? 'Its creator'} can no longer share this, so the link does not work. It works
          again if they get that access back.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 flex-1 basis-48 text-sm text-slate-600">{facts.join(' · ')}</p>
        <CopyButton
          text={address}
          field={field}
          label="Copy link"
          what="Link"
          selectWhat="address"
          statusClassName="basis-full text-sm text-red-700"
        />
        <button type="button" onClick={() => onRevoke(link)} className={buttonClass('secondary')}>
          Revoke
        </button>
      </div>
      {link.allowUpload && link.received && <RecentArrivals recent={link.received.recent} onOpen={onOpenFile} />}
    </li>
  );
}

/**
 * Create public links (expiry, password, download limit, file drop for folders), list, copy and revoke them. A drop
 * link's row counts and names what arrived; `onOpenFile`: a name was chosen (the viewer opens; the dialog closes).
 */
export function LinksSection({ target, onOpenFile }: { target: ShareTarget; onOpenFile?: () => void }) {
  const headingId = useId();
  const links = useQuery(linksQueryOptions(target));
  const { revoke } = useLinkMutations(target);
  const [revoking, setRevoking] = useState<Link | null>(null);

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Public links
      </h3>
      <p className="text-sm text-slate-600">Anyone with a link can open it, no sign-in needed.</p>
      <LinkForm target={target} />
      {links.isPending ? (
        <p className="text-sm text-slate-500">Loading links…</p>
      ) : links.isError ? (
        <Alert>{errorText(links.error)}</Alert>
      ) : links.data.length === 0 ? (
        <p className="text-sm text-slate-600">No links yet.</p>
      ) : (
        <ul aria-label="Links" className="divide-y divide-slate-100">
          {links.data.map((link) => (
            <LinkRow key={link.id} link={link} onRevoke={setRevoking} onOpenFile={onOpenFile} />
          ))}
        </ul>
      )}
      {revoke.error && <Alert>{errorText(revoke.error)}</Alert>}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this link?"
        message="Anyone who has it will no longer be able to open it. This cannot be undone."
        confirmLabel="Revoke link"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) });
        }}
      />
    </section>
  );
}
