import { useLocation, useNavigate } from 'react-router';
import { openedInApp, VIEWER_PARAM, viewerHref, viewerPlaceOf, withoutViewer } from '../../../lib/viewer-link';
import { FileViewer, type ViewerSlots } from './file-viewer';

/** The file the address opens the viewer on (`?file=<id>`), or null. */
export function viewerFileOf(search: string): string | null {
  const id = new URLSearchParams(search).get(VIEWER_PARAM);
  return id && id.trim() !== '' ? id : null;
}

/**
 * Shows the file viewer over any signed-in page whose address has `?file=<id>` (docs/PRODUCT.md#file-viewer): Back,
 * refresh and a pasted link work because the address is the state. Closing goes Back when the app opened it, else
 * drops the parameter; Previous / Next replace the address, so Back closes the viewer whatever was stepped through.
 */
export function FileViewerHost(slots: ViewerSlots) {
  const location = useLocation();
  const navigate = useNavigate();
  const fileId = viewerFileOf(location.search);
  if (!fileId) return null;
  const close = () => {
    if (openedInApp(location.state)) void navigate(-1);
    else void navigate(withoutViewer(location.pathname, location.search), { replace: true });
  };
  const open = (id: string) =>
    void navigate(viewerHref(id, location.pathname, location.search), { replace: true, state: location.state });
  return <FileViewer {...slots} fileId={fileId} place={viewerPlaceOf(location.search)} onClose={close} onOpen={open} />;
}

/** Whether the address has the viewer open (the floating assistant hides meanwhile). */
export const useViewerOpen = () => viewerFileOf(useLocation().search) !== null;
