import { ModalPanel } from '../../../components/ui/modal-panel';
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
    <ModalPanel
      title={`Share “${target.name}”`}
      subtitle={target.kind === 'file' ? 'File' : 'Folder'}
      onClose={onClose}
    >
      <div className="space-y-8">
        <PeopleSection target={target} />
        <div className="border-t border-slate-200 pt-6">
          <LinksSection target={target} />
        </div>
      </div>
    </ModalPanel>
  );
}
