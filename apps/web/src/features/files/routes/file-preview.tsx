import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useFiles } from '../api/files-api';
import { FilePreviewCard } from '../components/file-preview-card';
import { useDeleteFlow } from '../components/delete-flow';
import { FilesPageShell } from '../components/page';
import { useOwnerKey } from '../hooks/use-owner-key';

export default function FilePreviewPage() {
  const files = useFiles(useOwnerKey());
  const deletion = useDeleteFlow();
  return (
    <FilesPageShell
      title="Preview files"
      intro="Open a card to see its details and a preview. Files of your workspaces and files shared with you open in the viewer from Files, Search and Shared with me."
    >
      {files.isPending ? (
        <Spinner label="Loading files…" />
      ) : files.isError ? (
        <Alert>Could not load files.</Alert>
      ) : files.data.length === 0 ? (
        <p className="text-sm text-slate-600">No files uploaded yet.</p>
      ) : (
        <div className="space-y-3">
          {files.data.map((file) => (
            <FilePreviewCard key={file.id} file={file} onDelete={deletion.ask} />
          ))}
          {deletion.failureMessage}
        </div>
      )}
      {deletion.dialog}
    </FilesPageShell>
  );
}
