import { MEMBERS_MUST_ACCEPT_LABEL, type SystemCheck, type SystemStatus } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { errorText } from '../../../lib/api-error';
import { useInstanceSettings, useSystemStatus, useUpdateInstanceSettings } from '../api/admin-api';

const STATUS_STYLE: Record<SystemCheck['status'], string> = {
  ok: 'bg-green-100 text-green-800',
  loading: 'bg-amber-100 text-amber-800',
  disabled: 'bg-slate-100 text-slate-700',
  error: 'bg-red-100 text-red-800',
};

function uptimeText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min ${seconds % 60} s`;
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="min-w-0 rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
    </section>
  );
}

function Rows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Checks({ checks, label }: { checks: SystemCheck[]; label: string }) {
  if (checks.length === 0) return <p className="text-slate-600">None.</p>;
  return (
    <ul aria-label={label} className="space-y-1">
      {checks.map((check) => (
        <li key={check.name} className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-mono">{check.name}</span>
          <span className={`rounded px-1.5 text-xs font-medium ${STATUS_STYLE[check.status]}`}>{check.status}</span>
          {check.latencyMs !== undefined && <span className="text-slate-500">{check.latencyMs} ms</span>}
          {check.message && <span className="min-w-0 break-words text-slate-500">{check.message}</span>}
        </li>
      ))}
    </ul>
  );
}

function StatusCards({ status }: { status: SystemStatus }) {
  const dependencies = status.checks.filter((check) => !check.name.startsWith('ai.'));
  return (
    <div className="mt-6 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      <Card title="Server">
        <Rows
          rows={[
            ['Version', status.version],
            [
              'Commit',
              status.commit ? (
                <code title={status.commit} className="font-mono">
                  {status.commit.slice(0, 12)}
                </code>
              ) : (
                'not recorded'
              ),
            ],
            ['Uptime', uptimeText(status.uptimeSeconds)],
            ['Checked', new Date(status.checkedAt).toLocaleTimeString()],
          ]}
        />
      </Card>
      <Card title="Checks">
        <Checks checks={dependencies} label="Dependency checks" />
      </Card>
      <Card title="Database">
        <Rows
          rows={[
            ['Kind', status.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'],
            ['Size', status.database.sizeBytes === null ? 'unknown' : formatBytes(status.database.sizeBytes)],
          ]}
        />
      </Card>
      <Card title="Storage">
        <Rows
          rows={[
            ['Files', String(status.storage.files)],
            ['Used', formatBytes(status.storage.blobBytes)],
            ['In the trash', formatBytes(status.storage.trashBytes)],
            ['Older versions', formatBytes(status.storage.versionBytes)],
            [
              'Unfinished uploads',
              status.storage.tusBytes === null ? 'kept by S3' : formatBytes(status.storage.tusBytes),
            ],
            ['Blob store', status.storage.blobStore === 's3' ? 'S3' : 'File system'],
          ]}
        />
      </Card>
      <Card title="Live connections">
        <Rows
          rows={[
            ['Streams on this instance', String(status.streams.openOnThisInstance)],
            ['Push subscriptions', String(status.push.subscriptions)],
          ]}
        />
      </Card>
      <Card title="Background jobs">
        {status.jobs ? (
          <Rows
            rows={[
              ['Queued', String(status.jobs.queued)],
              ['Running', String(status.jobs.running)],
              [
                'Failed',
                <span key="failed" className={status.jobs.failed > 0 ? 'font-medium text-red-700' : undefined}>
                  {status.jobs.failed}
                </span>,
              ],
            ]}
          />
        ) : (
          <p className="text-slate-600">No background jobs.</p>
        )}
        <div className="mt-2">
          <Rows rows={[['Scheduled messages', String(status.scheduledNotifications.pending)]]} />
        </div>
      </Card>
      <Card title="AI engines">
        <Checks checks={status.ai} label="AI engines" />
      </Card>
      <div className="md:col-span-2 xl:col-span-3">
        <Card title="Configuration">
          <p className="mb-2 text-slate-500">Secrets show only whether they are set.</p>
          <Rows rows={status.config.map((entry) => [entry.key, entry.value])} />
        </Card>
      </div>
    </div>
  );
}

/** Instance settings: whether adding someone to a workspace only invites them (docs/PRODUCT.md#workspace-members). */
function SettingsCard() {
  const settings = useInstanceSettings();
  const update = useUpdateInstanceSettings();
  return (
    <section aria-label="Settings" className="mt-6 rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">Settings</h2>
      {settings.isPending ? (
        <Spinner />
      ) : settings.isError ? (
        <Alert className="mt-2">{errorText(settings.error)}</Alert>
      ) : (
        <label className="mt-2 flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="mt-0.5 size-4"
            checked={settings.data.membersMustAccept}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ membersMustAccept: event.target.checked })}
          />
          <span>
            <span className="font-medium text-slate-900">{MEMBERS_MUST_ACCEPT_LABEL}</span>
            <span className="block text-slate-600">
              When on, adding someone to a workspace invites them; they get access once they accept.
            </span>
          </span>
        </label>
      )}
      {update.isError && <Alert className="mt-2">{errorText(update.error)}</Alert>}
    </section>
  );
}

/** /dashboard/admin/system: version, uptime, dependency checks, sizes and configuration; refreshed every 15 s. */
export default function AdminSystemPage() {
  useDocumentTitle('System');
  const status = useSystemStatus();
  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">System</h1>
      <p className="mt-2 text-slate-600">The state of this server and its dependencies, refreshed every 15 seconds.</p>
      {status.isPending ? (
        <Spinner />
      ) : status.isError ? (
        <Alert size="base" className="mt-6">
          {isApiError(status.error) ? status.error.message : 'Could not load the system status.'}
        </Alert>
      ) : (
        <StatusCards status={status.data} />
      )}
      <SettingsCard />
    </section>
  );
}
