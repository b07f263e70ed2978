import { PAGES } from '@atrium/contracts/pages';
import { greetingFor } from '@atrium/assistant';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { Bell, FolderOpen, ShieldCheck, Sparkles, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMe } from '../../../lib/me';
import { useAiReadiness, useFileStats } from '../api/home-figures';

function InfoCard({
  icon: Icon,
  title,
  value,
  detail,
  to,
  state = 'ready',
}: {
  icon: LucideIcon;
  title: string;
  value: ReactNode;
  detail: ReactNode;
  to?: string;
  state?: 'ready' | 'loading' | 'unavailable';
}) {
  return (
    <li className="flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" data-state={state}>
      <h2 className="flex items-center gap-2 text-sm font-medium text-slate-600">
        <Icon className="size-5 text-brand-600" aria-hidden="true" />
        {title}
      </h2>
      <p className="mt-3 min-h-9 text-3xl font-semibold tracking-tight text-slate-900">{value}</p>
      <p className="mt-1 min-h-5 text-sm text-slate-600">{detail}</p>
      {to && (
        <Link to={to} className="mt-4 self-start rounded text-sm font-medium text-brand-700 hover:underline">
          Open {title.toLowerCase()}
        </Link>
      )}
    </li>
  );
}

export interface DashboardHomeProps {
  unreadCount: number;
  /** For tests: the user's local time. */
  now?: Date;
}

/** Dashboard home: a greeting by local time and four cards with real figures. */
export function DashboardHome({ unreadCount, now }: DashboardHomeProps) {
  useDocumentTitle('Dashboard');
  const me = useMe();
  const user = me.data;
  const stats = useFileStats(user?.ownerKey ?? '');
  const ai = useAiReadiness();
  if (!user) return <Spinner />;
  const name = user.name ?? user.nickname ?? user.ownerKey;

  const filesCard = stats.isPending ? (
    <InfoCard icon={FolderOpen} title="Files" value="…" detail="Loading…" state="loading" />
  ) : stats.isError || !stats.data ? (
    <InfoCard
      icon={FolderOpen}
      title="Files"
      value="—"
      detail="File statistics are unavailable right now."
      state="unavailable"
    />
  ) : (
    <InfoCard
      icon={FolderOpen}
      title="Files"
      value={`${stats.data.fileCount} ${stats.data.fileCount === 1 ? 'file' : 'files'}`}
      detail={`${formatBytes(stats.data.sizeInBytes)} used`}
      to={PAGES.files.path}
    />
  );

  const aiCard = ai.isPending ? (
    <InfoCard icon={Sparkles} title="AI services" value="…" detail="Loading…" state="loading" />
  ) : ai.isError ? (
    <InfoCard
      icon={Sparkles}
      title="AI services"
      value="—"
      detail="Readiness is unavailable right now."
      state="unavailable"
    />
  ) : ai.data.configured === 0 ? (
    <InfoCard icon={Sparkles} title="AI services" value="Not configured" detail="No AI service is set up yet." />
  ) : (
    <InfoCard
      icon={Sparkles}
      title="AI services"
      value={`${ai.data.ready} of ${ai.data.total} ready`}
      detail={ai.data.ready === ai.data.total ? 'Everything is ready.' : 'Some services are starting or unavailable.'}
    />
  );

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
        {greetingFor(now ?? new Date())}, {name}
      </h1>
      <p className="mt-2 text-slate-600">Here is what is happening in your workspace.</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {filesCard}
        <InfoCard
          icon={Bell}
          title="Notifications"
          value={`${unreadCount} unread`}
          detail={unreadCount === 0 ? 'You are all caught up.' : 'New messages are waiting.'}
          to={PAGES.notifications.path}
        />
        {aiCard}
        <InfoCard
          icon={ShieldCheck}
          title="Account"
          value={user.isAdmin ? 'Admin' : 'Member'}
          detail={`Signed in as ${user.ownerKey}`}
          to={PAGES.profile.path}
        />
      </ul>
    </section>
  );
}
