// The file viewer's public face (docs/PRODUCT.md#file-viewer): the app layer mounts the host in the signed-in layout
// and lends it the versions and details dialogs and the Star button through its slots.
export { FileViewerHost, useViewerOpen } from './components/file-viewer-host';
export type { ViewerSlots } from './components/file-viewer';
