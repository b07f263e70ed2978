// The sharing feature's public face: the file browser renders the share dialog.
export { ShareDialog, type ShareDialogProps } from './components/share-dialog';
export type { ShareTarget } from './api/sharing-api';
export { folderRoute } from './routes-config';
