import { ActivityFeed } from '../../../components/activity/activity-feed';
import { Dialog } from '../../../components/ui/dialog';
import type { EntryTarget } from './entry-list';

export interface FolderDetailsPanelProps {
  target: EntryTarget;
  onClose: () => void;
}

/**
 * A folder's details: its activity and that of everything below it, newest first, filterable by person and type
 * (docs/PRODUCT.md#activity). A side panel on wide screens, the whole screen on phones; Escape closes it.
 */
export function FolderDetailsPanel({ target, onClose }: FolderDetailsPanelProps) {
  return (
    <Dialog open title={target.name} description="Details" onClose={onClose} variant="side">
      <section aria-labelledby="folder-activity" className="space-y-3">
        <h3 id="folder-activity" className="text-sm font-semibold text-slate-900">
          Activity
        </h3>
        <ActivityFeed scope={{ kind: 'folder', id: target.id }} compact />
      </section>
    </Dialog>
  );
}
