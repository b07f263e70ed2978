// The file viewer's public face (docs/PRODUCT.md#file-viewer): the app layer mounts the host in the signed-in layout
// and lends it the versions and details dialogs (and, later, the Star button) through its slots.
export { FileViewerHost, useViewerOpen } from './components/file-viewer-host';
export type { ViewerSlots, ViewerTarget } from './components/file-viewer';
