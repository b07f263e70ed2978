import { SearchBox } from '../../features/search';
import { SpaceFolderPage } from '../../features/spaces';

/** The spaces' file browser route, with the search box above (Share opens the dashboard's ShareHost dialog). */
export default function SpaceFolderRoute() {
  return <SpaceFolderPage toolbar={<SearchBox className="max-w-xl" />} />;
}
