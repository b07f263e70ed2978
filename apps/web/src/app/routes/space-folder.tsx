import { SearchBox } from '../../features/search';
import { ShareDialog } from '../../features/sharing';
import { SpaceFolderPage } from '../../features/spaces';

/** The spaces' file browser route, with the sharing feature's dialog in its Share slot and the search box above. */
export default function SpaceFolderRoute() {
  return (
    <SpaceFolderPage
      toolbar={<SearchBox className="max-w-xl" />}
      shareDialog={(target, onClose) => <ShareDialog target={target} onClose={onClose} />}
    />
  );
}
