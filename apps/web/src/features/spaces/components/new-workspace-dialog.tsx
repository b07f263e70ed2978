import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/api-error';
import { useCreateWorkspace } from '../api/spaces-api';
import { folderPath } from '../lib/browser-logic';
import { NameDialog } from './name-dialog';

/** "New workspace": a name; the server's refusal shows under the field; on success its file browser opens. */
export function NewWorkspaceDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  return (
    <NameDialog
      title="New workspace"
      label="Workspace name"
      submitLabel="Create workspace"
      busy={create.isPending}
      error={errorText(create.error)}
      onClose={onClose}
      onSubmit={(name) =>
        create.mutate(name, {
          onSuccess: (workspace) => {
            onClose();
            void navigate(folderPath({ kind: 'workspace', id: workspace.id }));
          },
        })
      }
    />
  );
}
