import type { MeResponse } from '@atrium/contracts';
import { navLabel, PAGES, type Page } from '@atrium/contracts/pages';
import {
  AudioLines,
  Bell,
  Bot,
  ChevronDown,
  ChevronsLeft,
  ChevronsRight,
  FileUp,
  Clock,
  Files,
  FolderTree,
  History,
  FolderOpen,
  Inbox,
  Activity,
  KeyRound,
  House,
  List,
  LogOut,
  Eye,
  BarChart3,
  Cpu,
  ScanFace,
  ScanSearch,
  FileSearch,
  Search,
  Send,
  Share2,
  ScrollText,
  UserCog,
  ShieldCheck,
  Sparkles,
  Star,
  Trash2,
  UserRound,
  Volume2,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';

interface Item {
  to: string;
  label: string;
  icon: LucideIcon;
}
interface Group {
  id: 'files' | 'admin' | 'ai';
  label: string;
  icon: LucideIcon;
  items: Item[];
}

/** A sidebar entry for a page of the page table. */
const item = (page: Page, icon: LucideIcon): Item => ({ to: page.path, label: navLabel(page), icon });

/** The filterable top-level entries (docs/PRODUCT.md#sidebar). */
export const MAIN_ITEMS: Item[] = [
  item(PAGES.dashboard, House),
  // One entry for the spaces browser; the legacy screens stay in the Files group (docs/PRODUCT.md#sidebar).
  item(PAGES.personalFolder, FolderTree),
  item(PAGES.starred, Star),
  item(PAGES.recent, Clock),
  item(PAGES.activity, History),
  item(PAGES.profile, UserRound),
  item(PAGES.notifications, Bell),
  item(PAGES.chatbot, Bot),
];

export const GROUPS: Group[] = [
  {
    id: 'files',
    label: 'Files',
    icon: FolderOpen,
    items: [
      // The combined page (upload, list with row menus, stats, delete), then the spec's four entries.
      item(PAGES.files, Files),
      item(PAGES.shared, Share2),
      item(PAGES.fileUpload, FileUp),
      item(PAGES.fileList, List),
      item(PAGES.filePreview, Eye),
      item(PAGES.fileStats, BarChart3),
      item(PAGES.trash, Trash2),
    ],
  },
  {
    id: 'admin',
    label: 'Admin',
    icon: ShieldCheck,
    items: [
      item(PAGES.pushMessage, Send),
      item(PAGES.users, UserCog),
      item(PAGES.audit, ScrollText),
      item(PAGES.apiKeys, KeyRound),
      item(PAGES.messages, Inbox),
      item(PAGES.system, Activity),
      item(PAGES.aiSettings, Cpu),
    ],
  },
  {
    id: 'ai',
    label: 'AI Services',
    icon: Sparkles,
    items: [
      item(PAGES.speechToText, AudioLines),
      item(PAGES.textToSpeech, Volume2),
      item(PAGES.faceDetection, ScanFace),
      item(PAGES.imageAnalysis, ScanSearch),
    ],
  },
];

export interface SidebarProps {
  me: MeResponse;
  unreadCount: number;
  onLogout: () => void;
  collapsed: boolean;
  onToggleCollapsed?: () => void;
  /** Called after a link is followed (closes the mobile drawer). */
  onNavigate?: () => void;
  /** The space switcher (personal space and workspaces), which the app layer passes in. */
  switcher?: ReactNode;
  /** Counts shown as a badge next to group entries, by path (e.g. unread contact messages on Messages). */
  itemBadges?: Record<string, number>;
}

const itemClass =
  (collapsed: boolean) =>
  ({ isActive }: { isActive: boolean }) =>
    `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
      collapsed ? 'justify-center' : ''
    } ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'}`;

/**
 * The dashboard sidebar: a search filter over the main entries, the Files,
 * Admin (admins only) and AI Services groups with one open at a time, a
 * collapse toggle, and Logout.
 */
export function Sidebar({
  me,
  unreadCount,
  onLogout,
  collapsed,
  onToggleCollapsed,
  onNavigate,
  switcher,
  itemBadges = {},
}: SidebarProps) {
  const location = useLocation();
  const searchId = useId();
  const [query, setQuery] = useState('');
  const groups = GROUPS.filter((group) => group.id !== 'admin' || me.isAdmin);
  const [openGroup, setOpenGroup] = useState<Group['id'] | null>(
    () => groups.find((group) => group.items.some((item) => location.pathname.startsWith(item.to)))?.id ?? null,
  );
  const needle = query.trim().toLowerCase();
  const navigate = useNavigate();
  // The sidebar's search also finds files: the search page (features/search) with the same text.
  const filesSearchPath = `${PAGES.search.path}?q=${encodeURIComponent(query.trim())}`;
  const matches = (item: Item) => item.label.toLowerCase().includes(needle);
  const mainItems = MAIN_ITEMS.filter(matches);
  // A search also finds the groups' pages: groups without a match hide, and the first group with one opens
  // (still one open at a time: opening another matching group switches to it) showing only its matches.
  const [searchOpen, setSearchOpen] = useState<{ needle: string; id: Group['id'] | null } | null>(null);
  const searching = needle !== '' && !collapsed;
  const groupItems = (group: Group) => (searching ? group.items.filter(matches) : group.items);
  const shownGroups = searching ? groups.filter((group) => groupItems(group).length > 0) : groups;
  const openId = searching
    ? searchOpen?.needle === needle
      ? searchOpen.id
      : (shownGroups[0]?.id ?? null)
    : collapsed
      ? null
      : openGroup;

  return (
    <nav aria-label="Dashboard" className="flex h-full flex-col gap-4 p-3" data-collapsed={collapsed}>
      <div className={`flex items-center gap-2 ${collapsed ? 'justify-center' : 'justify-between'}`}>
        {!collapsed && (
          <Link
            to={PAGES.dashboard.path}
            onClick={onNavigate}
            className="rounded-md px-2 text-lg font-bold tracking-tight text-brand-700"
          >
            Atrium
          </Link>
        )}
        {onToggleCollapsed && (
          <button
            type="button"
            onClick={onToggleCollapsed}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100"
          >
            {collapsed ? (
              <ChevronsRight className="size-5" aria-hidden="true" />
            ) : (
              <ChevronsLeft className="size-5" aria-hidden="true" />
            )}
          </button>
        )}
      </div>

      {!collapsed && (
        <div className="relative">
          <label htmlFor={searchId} className="sr-only">
            Search menu
          </label>
          <Search
            className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500"
            aria-hidden="true"
          />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              // Enter searches the files (the pages are already filtered as you type).
              if (event.key !== 'Enter' || needle === '') return;
              event.preventDefault();
              onNavigate?.();
              void navigate(filesSearchPath);
            }}
            placeholder="Search…"
            className="w-full rounded-lg border border-slate-300 py-2 pl-9 pr-3 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600"
          />
        </div>
      )}

      {searching && (
        <Link
          to={filesSearchPath}
          onClick={onNavigate}
          className="-mt-2 flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <FileSearch className="size-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0 flex-1 truncate">Search files for “{query.trim()}”</span>
        </Link>
      )}

      <ul className="space-y-1" aria-label="Main">
        {mainItems.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              end
              onClick={onNavigate}
              className={itemClass(collapsed)}
              title={collapsed ? label : undefined}
            >
              <span className="relative">
                <Icon
                  className={`size-5 shrink-0 ${to.endsWith('notifications') && unreadCount > 0 ? 'animate-bell text-brand-600' : ''}`}
                  aria-hidden="true"
                  data-animated={to.endsWith('notifications') && unreadCount > 0 ? 'true' : undefined}
                />
                {collapsed && to.endsWith('notifications') && unreadCount > 0 && (
                  <span className="absolute -right-1 -top-1 size-2.5 rounded-full bg-red-600" aria-hidden="true" />
                )}
              </span>
              <span className={collapsed ? 'sr-only' : 'flex-1'}>{label}</span>
              {to.endsWith('notifications') && unreadCount > 0 && (
                <span
                  className={`${collapsed ? 'sr-only' : ''} rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white`}
                  data-testid="unread-badge"
                >
                  {unreadCount}
                  <span className="sr-only"> unread</span>
                </span>
              )}
            </NavLink>
          </li>
        ))}
        {mainItems.length === 0 && shownGroups.length === 0 && (
          <li className="px-3 py-2 text-sm text-slate-600">No matching pages.</li>
        )}
      </ul>

      {switcher}

      <ul className="space-y-1 border-t border-slate-200 pt-4">
        {shownGroups.map((group) => {
          const { id, label, icon: Icon } = group;
          const items = groupItems(group);
          const open = openId === id;
          const panelId = `${searchId}-${id}`;
          return (
            <li key={id}>
              <button
                type="button"
                aria-expanded={open}
                aria-controls={panelId}
                title={collapsed ? label : undefined}
                onClick={() => {
                  if (collapsed) onToggleCollapsed?.();
                  if (searching) setSearchOpen({ needle, id: open ? null : id });
                  setOpenGroup(open ? null : id);
                }}
                className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${
                  collapsed ? 'justify-center' : ''
                }`}
              >
                <Icon className="size-5 shrink-0" aria-hidden="true" />
                <span className={collapsed ? 'sr-only' : 'flex-1 text-left'}>{label}</span>
                {!collapsed && (
                  <ChevronDown
                    className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`}
                    aria-hidden="true"
                  />
                )}
              </button>
              <ul id={panelId} hidden={!open} className="mt-1 space-y-1 pl-4">
                {items.map(({ to, label: itemLabel, icon: ItemIcon }) => (
                  <li key={to}>
                    <NavLink
                      to={to}
                      onClick={() => {
                        setOpenGroup(id); // the group stays open once the search is cleared
                        onNavigate?.();
                      }}
                      className={itemClass(false)}
                    >
                      <ItemIcon className="size-4 shrink-0" aria-hidden="true" />
                      <span className="flex-1">{itemLabel}</span>
                      {(itemBadges[to] ?? 0) > 0 && (
                        <span
                          className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white"
                          data-testid="item-badge"
                        >
                          {itemBadges[to]}
                          <span className="sr-only"> unread</span>
                        </span>
                      )}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>

      <div className="mt-auto border-t border-slate-200 pt-4">
        {!collapsed && (
          <p className="mb-2 truncate px-3 text-xs text-slate-600" title={me.email ?? undefined}>
            Signed in as <span className="font-medium text-slate-900">{me.name ?? me.nickname ?? me.ownerKey}</span>
          </p>
        )}
        <button
          type="button"
          onClick={onLogout}
          title={collapsed ? 'Logout' : undefined}
          className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-red-50 hover:text-red-700 ${
            collapsed ? 'justify-center' : ''
          }`}
        >
          <LogOut className="size-5 shrink-0" aria-hidden="true" />
          <span className={collapsed ? 'sr-only' : ''}>Logout</span>
        </button>
      </div>
    </nav>
  );
}
