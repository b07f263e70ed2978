import type { FileRecord, FolderListing, Space } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { ShareActionContext, type ShareRequest } from '../../../lib/share-action';
import { FileBrowser, type FileBrowserProps } from '../components/file-browser';

// What the file browser's tests share: answers of the contracts' shapes, the space, the render and a desktop screen.

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const fileRecord = (id: string, fileName: string, contentType = 'application/pdf'): FileRecord => ({
  id,
  fileId: id,
  fileName,
  size: 2048,
  contentType,
  uploadDate: '2026-11-24T10:00:00.000Z',
});

/** The root folder of workspace w1, empty unless `over` fills it. */
export const folderListing = (over: Partial<FolderListing>): FolderListing => ({
  id: 'root',
  name: '',
  parentId: null,
  workspaceId: 'w1',
  path: [{ id: 'root', name: '' }],
  createdAt: '2026-11-24T10:00:00.000Z',
  folders: [],
  files: [],
  nextCursor: null,
  ...over,
});

/** Workspace "Design team" (w1), where the caller has `role`. */
const designTeam = (role: 'owner' | 'editor' | 'viewer'): Space => ({
  kind: 'workspace',
  id: 'w1',
  name: 'Design team',
  role,
  rootFolderId: 'root',
});

/**
 * The file browser on Design team (as an editor unless `role` says otherwise), with a fresh query cache; `share`
 * stands for the app's share dialog (lib/share-action.ts), absent unless given.
 */
export function renderFileBrowser(
  props: Partial<FileBrowserProps> & {
    role?: 'owner' | 'editor' | 'viewer';
    share?: (target: ShareRequest) => void;
    /** The address the browser opens at (e.g. `/?select=f1`). */
    at?: string;
  } = {},
) {
  const { role = 'editor', share, at = '/', ...rest } = props;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const current = designTeam(role);
  return render(
    <QueryClientProvider client={client}>
      <ShareActionContext.Provider value={share ?? null}>
        <MemoryRouter initialEntries={[at]}>
          <FileBrowser space={current} spaces={[current]} {...rest} />
        </MemoryRouter>
      </ShareActionContext.Provider>
    </QueryClientProvider>,
  );
}

/** A 1366 px wide screen for the browser's media queries (call in `beforeEach`; `vi.unstubAllGlobals` undoes it). */
export function stubDesktopScreen() {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: 1366 >= Number(/(\d+)px/.exec(query)?.[1] ?? 0),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}
