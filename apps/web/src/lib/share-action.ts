import { createContext, useContext } from 'react';

/** What to share: a file or a folder, named for the dialog's title. */
export interface ShareRequest {
  kind: 'file' | 'folder';
  id: string;
  name: string;
}

/**
 * Opens the share dialog. The app layer provides it (features/sharing `ShareHost`), so any feature's menus can
 * offer "Share" without importing the sharing feature; null where no host is mounted (then offer no Share item).
 */
export const ShareActionContext = createContext<((target: ShareRequest) => void) | null>(null);

export const useShareAction = () => useContext(ShareActionContext);
