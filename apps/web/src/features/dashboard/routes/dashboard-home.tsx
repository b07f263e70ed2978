import type { HomeSummary } from '@atrium/contracts';
import { folderHref, PAGES } from '@atrium/contracts/pages';
import { greetingFor } from '@atrium/assistant';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { Bell, FolderOpen, ShieldCheck, Sparkles, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { HomeItemList } from '../../../components/home-items';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMe } from '../../../lib/me';
import { useAiReadiness, useHome } from '../api/home-figures';

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

const spacesText = (workspaces: number) =>
  workspaces === 0 ? 'your space' : `your space and ${workspaces} ${workspaces === 1 ? 'workspace' : 'workspaces'}`;

const sectionTitle = 'text-lg font-semibold text-slate-900';

/** The home's lists under the cards: recent files, my workspaces with their storage, shared with me lately. */
function HomeLists({ home }: { home: HomeSummary }) {
  return (
    <div className="mt-10 grid grid-cols-1 gap-8 lg:grid-cols-2">
      <section aria-labelledby="home-recent" className="min-w-0 space-y-3 lg:col-span-2">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="home-recent" className={sectionTitle}>
            Recent files
          </h2>
          <Link to={PAGES.recent.path} className="rounded text-sm font-medium text-brand-700 hover:underline">
            See all recent files
          </Link>
        </div>
        {home.recent.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            No files yet. Upload one in Files, or ask your team to share one with you.
          </p>
        ) : (
          <HomeItemList items={home.recent} label="Recent files" />
        )}
      </section>
      <section aria-labelledby="home-workspaces" className="min-w-0 space-y-3">
        <h2 id="home-workspaces" className={sectionTitle}>
          Your workspaces
        </h2>
        {home.workspaces.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            You are not in a workspace yet.
          </p>
        ) : (
          <ul
            aria-label="Your workspaces"
            className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200"
          >
            {home.workspaces.map((workspace) => (
              <li key={workspace.id} className="flex items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <Link
                    to={folderHref(workspace.id)}
                    className="block truncate font-medium text-slate-900 hover:underline"
                  >
                    {workspace.name}
                  </Link>
                  <p className="text-sm text-slate-600">
                    {workspace.files} {workspace.files === 1 ? 'file' : 'files'} · {formatBytes(workspace.usedBytes)}{' '}
                    used
                  </p>
                </div>
                <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-sm text-slate-700 capitalize">
                  {workspace.role}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="home-shared" className="min-w-0 space-y-3">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="home-shared" className={sectionTitle}>
            Shared with me lately
          </h2>
          <Link to={PAGES.shared.path} className="rounded text-sm font-medium text-brand-700 hover:underline">
            See all shared with me
          </Link>
        </div>
        {home.sharedLately.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            Nothing has been shared with you yet.
          </p>
        ) : (
          <ul
            aria-label="Shared with me lately"
            className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200"
          >
            {home.sharedLately.map((share) => (
              <li key={`${share.kind}:${share.id}`} className="px-4 py-3">
                {share.folderId !== null ? (
                  <Link to={folderHref(null, share.folderId)} className="font-medium text-slate-900 hover:underline">
                    {share.name}
                  </Link>
                ) : (
                  <Link to={PAGES.shared.path} className="font-medium text-slate-900 hover:underline">
                    {share.name}
                  </Link>
                )}
                <p className="text-sm text-slate-600">
                  {share.sharedBy} · {share.role === 'editor' ? 'can edit' : 'can view'}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/**
 * Dashboard home (docs/PRODUCT.md#dashboard-home): a greeting by local time, four cards with real figures (the files card counts
 * every file I can reach, not only my personal space), then recent files, my workspaces and shared with me lately.
 */
export function DashboardHome({ unreadCount, now }: DashboardHomeProps) {
  useDocumentTitle('Dashboard');
  const me = useMe();
  const user = me.data;
  const home = useHome();
  const ai = useAiReadiness();
  if (!user) return <Spinner />;
  const name = user.name ?? user.nickname ?? user.ownerKey;

  const filesCard = home.isPending ? (
    <InfoCard icon={FolderOpen} title="Files" value="…" detail="Loading…" state="loading" />
  ) : home.isError ? (
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
      value={`${home.data.counts.files} ${home.data.counts.files === 1 ? 'file' : 'files'}`}
      detail={`${formatBytes(home.data.counts.bytes)} you can reach in ${spacesText(home.data.counts.workspaces)}`}
      to={PAGES.personalFolder.path}
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
      {home.data && <HomeLists home={home.data} />}
    </section>
  );
}
