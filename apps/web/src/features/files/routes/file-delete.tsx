import { useState } from 'react';
import { useParams } from 'react-router';
import { useDeleteFlow } from '../components/delete-flow';
import { FileIdForm } from '../components/file-id-form';
import { FilesPageShell } from '../components/page';

/**
 * /dashboard/file-delete/:fileId?: looks the id up first — 'File not found' and no dialog for an id
 * the caller has no file by; otherwise a confirmation naming the file, its size and date.
 */
export default function FileDeletePage() {
  const params = useParams();
  const [fileId, setFileId] = useState(params.fileId ?? '');
  const deletion = useDeleteFlow(() => setFileId(''));

  return (
    <FilesPageShell title="Delete a file" intro="Enter the ID of the file to delete.">
      <FileIdForm
        fileId={fileId}
        onFileIdChange={setFileId}
        submitLabel="Delete"
        variant="danger"
        failureMessage="Failed to delete file."
        onFound={deletion.ask}
      >
        {deletion.failureMessage}
      </FileIdForm>
      {deletion.dialog}
    </FilesPageShell>
  );
}
