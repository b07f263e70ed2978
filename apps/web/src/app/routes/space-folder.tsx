import { SpaceFolderPage } from '../../features/spaces';

/**
 * The spaces' file browser route. The share dialog (the sharing feature) plugs in here as
 * `shareDialog={(target, onClose) => <ShareDialog … />}`; without it the browser hides the Share action.
 */
export default function SpaceFolderRoute() {
  return <SpaceFolderPage />;
}
