// Every page of the web app (docs/PRODUCT.md#web-routes), once: the router registers them, the sidebar and the links
// point at them, the assistant opens them by name. zod-free (`@atrium/contracts/pages`), so the public pages and the
// assistant load no schema.

import { fillPath, type PathParams } from './fill-path';

/** A page: where it is, and what people call it. */
export interface Page {
  /** Its address without parameters (what a link to it is). */
  path: string;
  /** What follows the path in the route pattern, e.g. `/:fileId?`. */
  params?: string;
  /** Its name (page titles, "Opening <title>."). */
  title: string;
  /** Its entry in the sidebar, where that differs from the title. */
  nav?: string;
}

export const PAGES = {
  home: { path: '/', title: 'Home' },
  about: { path: '/about', title: 'About' },
  features: { path: '/features', title: 'Features' },
  pricing: { path: '/pricing', title: 'Pricing' },
  contact: { path: '/contact', title: 'Contact' },
  testimonials: { path: '/testimonials', title: 'Reviews' },
  login: { path: '/login', title: 'Login' },
  publicLink: { path: '/s', params: '/:token', title: 'Shared link' },
  invite: { path: '/invite', params: '/:token', title: 'Invitation' },
  resetPassword: { path: '/reset-password', params: '/:token', title: 'Set a password' },
  signup: { path: '/signup', title: 'Sign up' },
  dashboard: { path: '/dashboard', title: 'Dashboard', nav: 'Home' },
  profile: { path: '/dashboard/profile', title: 'Profile' },
  connectApp: { path: '/dashboard/connect-app', params: '/:token', title: 'Connect an app' },
  notifications: { path: '/dashboard/notifications', title: 'Notifications' },
  shared: { path: '/dashboard/shared', title: 'Shared with me' },
  trash: { path: '/dashboard/trash', title: 'Trash' },
  starred: { path: '/dashboard/starred', title: 'Starred' },
  recent: { path: '/dashboard/recent', title: 'Recent' },
  activity: { path: '/dashboard/activity', title: 'Activity' },
  search: { path: '/dashboard/search', title: 'Search' },
  personalFolder: {
    path: '/dashboard/spaces/personal/folders',
    params: '/:folderId?',
    title: 'Personal space',
    nav: 'Files',
  },
  workspaceFolder: { path: '/dashboard/spaces/:workspaceId/folders', params: '/:folderId?', title: 'Workspace' },
  members: { path: '/dashboard/spaces/:workspaceId/members', title: 'Members' },
  personalPeople: { path: '/dashboard/spaces/personal/people', title: 'People' },
  workspacePeople: { path: '/dashboard/spaces/:workspaceId/people', title: 'People' },
  files: { path: '/dashboard/files', title: 'Files', nav: 'My files (personal)' },
  fileUpload: { path: '/dashboard/file-upload', title: 'File Upload', nav: 'Upload' },
  fileList: { path: '/dashboard/file-list', title: 'File List', nav: 'List' },
  fileDownload: { path: '/dashboard/file-download', params: '/:fileId?', title: 'File Download' },
  fileDelete: { path: '/dashboard/file-delete', params: '/:fileId?', title: 'File Delete' },
  fileStats: { path: '/dashboard/file-stats', title: 'File Stats' },
  filePreview: { path: '/dashboard/file-preview', title: 'File Preview', nav: 'Preview' },
  speechToText: { path: '/dashboard/speech-to-text', title: 'Speech to Text' },
  textToSpeech: { path: '/dashboard/text-to-speech', title: 'Text to Speech' },
  faceDetection: { path: '/dashboard/face-detection', title: 'Face Detection' },
  imageAnalysis: { path: '/dashboard/image-analysis', title: 'Image Analysis' },
  pushMessage: { path: '/dashboard/admin/push-message', title: 'Send Push Message' },
  users: { path: '/dashboard/admin/users', title: 'Users' },
  audit: { path: '/dashboard/admin/audit', title: 'Audit log' },
  apiKeys: { path: '/dashboard/admin/api-keys', title: 'API keys' },
  messages: { path: '/dashboard/admin/messages', title: 'Messages' },
  system: { path: '/dashboard/admin/system', title: 'System' },
  aiSettings: { path: '/dashboard/admin/ai', title: 'AI settings' },
  chatbot: { path: '/dashboard/chatbot', title: 'AI Assistant' },
} as const satisfies Record<string, Page>;

export type PageId = keyof typeof PAGES;

/** A page's route pattern, e.g. `/dashboard/file-download/:fileId?`. */
export const pagePattern = (page: Page): string => page.path + (page.params ?? '');

/** A page's route pattern below `base` (`/dashboard`: `file-download/:fileId?`; the base itself: ''). */
export function pagePatternBelow(page: Page, base: string): string {
  const pattern = pagePattern(page);
  const prefix = base === '/' ? '/' : `${base}/`;
  if (pattern === base) return '';
  if (!pattern.startsWith(prefix)) throw new Error(`${pattern} is not below ${base}`);
  return pattern.slice(prefix.length);
}

/** A page's entry in the sidebar. */
export const navLabel = (page: Page): string => page.nav ?? page.title;

/**
 * A page's address with its parameters filled in (each encoded); an optional parameter not given is left out, a
 * required one not given is a programming error.
 */
export function pageHref(page: Page, params: PathParams = {}): string {
  // An empty value counts as not given here (a folder id of '' is the space's root).
  const given = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, value === '' ? null : value]));
  return fillPath(pagePattern(page), given);
}

/**
 * A folder in the file browser: of a workspace (`workspaceId`), else the personal route, which also opens folders of
 * others reached through a share. Without a folder: the space's root.
 */
export const folderHref = (workspaceId: string | null, folderId?: string | null): string =>
  workspaceId === null
    ? pageHref(PAGES.personalFolder, { folderId })
    : pageHref(PAGES.workspaceFolder, { workspaceId, folderId });
