// The spaces feature's public face: the app layer composes these (sidebar switcher, routes, the share slot).
export { SpaceSwitcher } from './components/space-switcher';
export { SpaceFolderPage } from './routes/space-folder';
// The file viewer (features/viewer) shows these from its toolbar; the app layer lends them to it.
export { VersionsDialog } from './components/versions-dialog';
export { FileDetailsPanel } from './components/file-details-panel';
export { default as MembersPage } from './routes/members';
