import { SpaceFolderPage } from '../../features/spaces';
import { ShareDialog } from '../../features/sharing';

/** The spaces' file browser route, with the sharing feature's dialog in its Share slot. */
export default function SpaceFolderRoute() {
  return <SpaceFolderPage shareDialog={(target, onClose) => <ShareDialog target={target} onClose={onClose} />} />;
}
