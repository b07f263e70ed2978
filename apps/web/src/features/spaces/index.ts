// The spaces feature's public face: the app layer composes these (sidebar switcher, routes, the share slot).
export { SpaceSwitcher } from './components/space-switcher';
export { SpaceFolderPage } from './routes/space-folder';
