// The spaces feature's public face: the app layer composes these (sidebar switcher, routes, the share slot).
export { SpaceSwitcher } from './components/space-switcher';
export { FileBrowser, type FileBrowserProps, type ShareDialogSlot } from './components/file-browser';
export type { EntryTarget } from './components/entry-list';
export { SpaceFolderPage } from './routes/space-folder';
