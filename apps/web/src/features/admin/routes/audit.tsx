import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@atrium/contracts';
import { Download } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { auditCsvUrl, useAuditLog, type AuditFilters } from '../api/admin-api';

const detailsText = (entry: AuditEntry) => (entry.details ? JSON.stringify(entry.details) : '');

/** /dashboard/admin/audit: who did what, newest first, filtered, paged and exported as CSV. */
export default function AdminAuditPage() {
  useDocumentTitle('Audit log');
  const [draft, setDraft] = useState<AuditFilters>({});
  const [filters, setFilters] = useState<AuditFilters>({});
  const log = useAuditLog(filters);
  const ids = { actor: useId(), action: useId(), target: useId(), from: useId(), to: useId() };
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };
  const field = 'min-h-11 rounded-md border border-slate-300 px-3 py-2 text-sm sm:min-h-0';

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Audit log</h1>
      <p className="mt-2 text-slate-600">Sign-ins, role and account changes, API keys, notifications and deletions.</p>
      <form onSubmit={apply} className="mt-6 grid gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Filters">
        <label htmlFor={ids.actor} className="flex flex-col text-sm text-slate-700">
          Actor
          <input
            id={ids.actor}
            className={field}
            value={draft.actor ?? ''}
            onChange={(e) => setDraft({ ...draft, actor: e.target.value.trim() })}
          />
        </label>
        <label htmlFor={ids.action} className="flex flex-col text-sm text-slate-700">
          Action
          <select
            id={ids.action}
            className={field}
            value={draft.action ?? ''}
            onChange={(e) => setDraft({ ...draft, action: e.target.value as AuditAction | '' })}
          >
            <option value="">Any</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.target} className="flex flex-col text-sm text-slate-700">
          Target
          <input
            id={ids.target}
            className={field}
            placeholder="user:bob"
            value={draft.target ?? ''}
            onChange={(e) => setDraft({ ...draft, target: e.target.value.trim() })}
          />
        </label>
        <label htmlFor={ids.from} className="flex flex-col text-sm text-slate-700">
          From
          <input
            id={ids.from}
            type="date"
            className={field}
            value={draft.from ?? ''}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label htmlFor={ids.to} className="flex flex-col text-sm text-slate-700">
          To
          <input
            id={ids.to}
            type="date"
            className={field}
            value={draft.to ?? ''}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className={`${buttonClass()} min-h-11`}>
            Apply
          </button>
          <a
            href={auditCsvUrl(filters)}
            download
            className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 py-2 text-sm ring-1 ring-slate-300"
          >
            <Download className="size-4" aria-hidden="true" />
            CSV
          </a>
        </div>
      </form>

      {log.isPending ? (
        <Spinner />
      ) : log.isError ? (
        <Alert size="base" className="mt-6">
          {isApiError(log.error) ? log.error.message : 'Could not load the audit log.'}
        </Alert>
      ) : entries.length === 0 ? (
        <p className="mt-6 text-slate-600">No entries match.</p>
      ) : (
        <>
          <table className="mt-6 hidden w-full text-left text-sm sm:table" aria-label="Audit entries">
            <thead className="text-slate-600">
              <tr>
                <th className="py-2 pr-3">Time</th>
                <th className="py-2 pr-3">Actor</th>
                <th className="py-2 pr-3">Action</th>
                <th className="py-2 pr-3">Target</th>
                <th className="py-2 pr-3">IP</th>
                <th className="py-2">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} className="border-t border-slate-200 align-top">
                  <td className="py-2 pr-3">{new Date(entry.at).toLocaleString()}</td>
                  <td className="py-2 pr-3">{entry.actor ?? '—'}</td>
                  <td className="py-2 pr-3 font-mono">{entry.action}</td>
                  <td className="py-2 pr-3 break-all">{entry.target ?? '—'}</td>
                  <td className="py-2 pr-3">{entry.ip ?? '—'}</td>
                  <td className="py-2 break-all text-slate-600">{detailsText(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="mt-6 space-y-3 sm:hidden" aria-label="Audit entries">
            {entries.map((entry) => (
              <li key={entry.id} className="rounded-md bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200">
                <div className="font-mono font-medium">{entry.action}</div>
                <div className="text-slate-600">
                  {new Date(entry.at).toLocaleString()} · {entry.actor ?? '—'} · {entry.ip ?? '—'}
                </div>
                <div className="break-all text-slate-600">{entry.target ?? '—'}</div>
                {entry.details && <div className="break-all text-slate-500">{detailsText(entry)}</div>}
              </li>
            ))}
          </ul>
          <LoadMore query={log} look="plain" />
        </>
      )}
    </section>
  );
}
