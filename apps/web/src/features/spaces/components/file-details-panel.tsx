import type { FileAccessEntry, FileActivityEntry, FileDetails } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { History } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useFileDetails } from '../api/file-details-api';
import type { EntryTarget } from './entry-list';
import { VersionsDialog } from './versions-dialog';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago" — `iso` relative to `now`. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const seconds = Math.round((Date.parse(iso) - now.getTime()) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60), 'minute');
}

const quoted = (value: unknown) => (typeof value === 'string' ? `“${value}”` : '');
const nameOf = (value: unknown) =>
  value && typeof value === 'object' && 'name' in value && typeof value.name === 'string' ? value.name : null;

/** One activity entry as a sentence: "Dora renamed it from “a.txt” to “b.txt”". */
export function activityText(entry: FileActivityEntry): string {
  const who = entry.actor ?? 'Someone';
  const details = entry.details ?? {};
  switch (entry.action) {
    case 'file.uploaded':
      return details.via === 'link' ? 'Uploaded through a file-drop link' : `${who} uploaded it`;
    case 'file.version_added':
      return `${who} uploaded a new version`;
    case 'file.renamed':
      return `${who} renamed it from ${quoted(details.from)} to ${quoted(details.to)}`;
    case 'file.moved': {
      const to = nameOf(details.to);
      const from =
        details.from && typeof details.from === 'object' && 'otherSpace' in details.from ? ' from another space' : '';
      return `${who} moved it${from}${to ? ` to ${quoted(to)}` : ''}`;
    }
    case 'file.version_restored':
      return `${who} restored an older version`;
    case 'share.created': {
      const grantee = details.grantee as { ownerKey?: string; kind?: string } | undefined;
      const whom = grantee?.ownerKey ?? (grantee?.kind === 'workspace' ? 'a workspace' : 'someone');
      const role = typeof details.role === 'string' ? ` as ${details.role}` : '';
      return details.changed === true
        ? `${who} changed the share with ${whom}${role}`
        : `${who} shared it with ${whom}${role}`;
    }
    case 'share.revoked': {
      const grantee = details.grantee as { ownerKey?: string } | undefined;
      return `${who} stopped sharing it${grantee?.ownerKey ? ` with ${grantee.ownerKey}` : ''}`;
    }
    case 'link.created':
      return `${who} created a public link`;
    case 'link.revoked':
      return `${who} revoked a public link`;
    case 'file.deleted':
      return `${who} moved it to the trash`;
    case 'file.restored':
      return `${who} restored it from the trash`;
    default:
      return `${who}: ${entry.action}`;
  }
}

const ROLE_TEXT = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' } as const;

function accessText(entry: FileAccessEntry): string {
  if (entry.kind === 'owner') return 'Owner of this personal space';
  if (entry.kind === 'member') return `${ROLE_TEXT[entry.role]} · workspace member`;
  return `${ROLE_TEXT[entry.role]} · shared ${entry.via ? `through the folder “${entry.via.folderName}”` : 'directly'}`;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0">
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Facts({ details }: { details: FileDetails }) {
  const place = [details.location.spaceName, ...details.location.path.slice(1).map((crumb) => crumb.name)].join(' › ');
  const rows: [string, ReactNode][] = [
    ['Type', details.contentType],
    ['Size', formatBytes(details.size)],
    ['Location', place],
    ['Created', <time dateTime={details.createdAt}>{new Date(details.createdAt).toLocaleString()}</time>],
    ['Modified', <time dateTime={details.updatedAt}>{new Date(details.updatedAt).toLocaleString()}</time>],
    ['Your access', ROLE_TEXT[details.yourRole]],
  ];
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-600">{label}</dt>
          <dd className="break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Checksum({ sha256 }: { sha256: string }) {
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        SHA-256
      </label>
      <input
        id={id}
        ref={field}
        readOnly
        value={sha256}
        className="min-w-0 flex-1 basis-48 rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs text-slate-800"
      />
      <CopyButton
        text={sha256}
        field={field}
        ariaLabel="Copy SHA-256"
        what="Checksum"
        statusClassName="basis-full text-sm text-red-700"
      />
    </div>
  );
}

function Body({ details, onVersions }: { details: FileDetails; onVersions: () => void }) {
  const now = new Date();
  return (
    // Focus starts on the details themselves (not on the SHA-256 field, which would select it).
    <div data-autofocus tabIndex={-1} className="space-y-5 focus:outline-none">
      <Section title="File">
        <Facts details={details} />
      </Section>
      <Section title="SHA-256">
        <Checksum sha256={details.sha256} />
      </Section>
      <Section title="Versions">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-700">
            {details.versions.count === 0
              ? 'No older versions.'
              : `${details.versions.count} older ${details.versions.count === 1 ? 'version' : 'versions'} · ${formatBytes(details.versions.bytes)}`}
          </p>
          <button type="button" onClick={onVersions} className={buttonClass('secondary')}>
            <History aria-hidden="true" className="size-4" /> Show versions
          </button>
        </div>
      </Section>
      <Section title="Who has access">
        {details.access === null ? (
          <p className="text-sm text-slate-600">Only owners and editors of this file see who has access.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="People and workspaces with access">
            {details.access.map((entry, index) => (
              <li key={`${entry.kind}-${entry.principal.id}-${index}`} className="py-2 text-sm">
                <span className="block font-medium text-slate-900">{entry.principal.name}</span>
                <span className="block text-slate-600">{accessText(entry)}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {details.links !== null && (
        <Section title="Public links">
          {details.links.length === 0 ? (
            <p className="text-sm text-slate-600">No active links. Share the file to create one.</p>
          ) : (
            <ul className="divide-y divide-slate-100" aria-label="Active public links">
              {details.links.map((link) => (
                <li key={link.id} className="py-2 text-sm">
                  <span className="block break-all font-mono text-xs text-slate-900">{link.url}</span>
                  <span className="block text-slate-600">
                    {link.downloads} {link.downloads === 1 ? 'download' : 'downloads'}
                    {link.expiresAt ? ` · expires ${new Date(link.expiresAt).toLocaleDateString()}` : ''}
                    {link.hasPassword ? ' · password' : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
      <Section title="Activity">
        {details.activity.length === 0 ? (
          <p className="text-sm text-slate-600">No recorded activity.</p>
        ) : (
          <ol className="space-y-2 border-l-2 border-slate-200 pl-3" aria-label="Activity, newest first">
            {details.activity.map((entry, index) => (
              <li key={`${entry.at}-${index}`} className="text-sm">
                <span className="block text-slate-900">{activityText(entry)}</span>
                <time
                  dateTime={entry.at}
                  title={new Date(entry.at).toLocaleString()}
                  className="text-xs text-slate-500"
                >
                  {relativeTime(entry.at, now)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </Section>
    </div>
  );
}

export interface FileDetailsPanelProps {
  target: EntryTarget;
  onClose: () => void;
}

/**
 * A file's details (docs/PRODUCT.md#file-details): type, size, SHA-256 (with Copy), location, versions (opens the
 * Versions dialog), who has access and its active links (owners and editors; the server leaves them out for viewers)
 * and its activity, newest first with relative times. A side panel on wide screens, the whole screen on phones;
 * Escape closes it.
 */
export function FileDetailsPanel({ target, onClose }: FileDetailsPanelProps) {
  const details = useFileDetails(target.id);
  const [versions, setVersions] = useState(false);
  return (
    <>
      <Dialog open title={details.data?.name ?? target.name} description="Details" onClose={onClose} variant="side">
        {details.isPending ? (
          <Spinner label="Loading details…" />
        ) : details.isError ? (
          <div className="space-y-3">
            <Alert>{errorText(details.error) ?? 'Could not load the details.'}</Alert>
            <button type="button" onClick={() => void details.refetch()} className={buttonClass('secondary')}>
              Try again
            </button>
          </div>
        ) : (
          <Body details={details.data} onVersions={() => setVersions(true)} />
        )}
      </Dialog>
      {versions && details.data && (
        <VersionsDialog
          target={{ ...target, name: details.data.name }}
          canWrite={details.data.yourRole !== 'viewer'}
          onClose={() => setVersions(false)}
        />
      )}
    </>
  );
}
