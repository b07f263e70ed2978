import { Dialog } from '../../../components/ui/dialog';
import type { ShareTarget } from '../api/sharing-api';
import { LinksSection } from './links-section';
import { PeopleSection } from './people-section';

export interface ShareDialogProps {
  target: ShareTarget;
  onClose: () => void;
}

/** Share a file or folder: with people and workspaces (roles, revoke) and by public link. */
export function ShareDialog({ target, onClose }: ShareDialogProps) {
  return (
    <Dialog
      open
      title={`Share “${target.name}”`}
      description={target.kind === 'file' ? 'File' : 'Folder'}
      onClose={onClose}
      size="lg"
      variant="sheet"
    >
      <div className="space-y-8">
        <PeopleSection target={target} />
        <div className="border-t border-slate-200 pt-6">
          <LinksSection target={target} onOpenFile={onClose} />
        </div>
      </div>
    </Dialog>
  );
}
