import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { dangerButtonClass, FileIdField, FilesPageShell } from '../components/page';
import { useDeleteFlow } from '../components/delete-flow';

/** /dashboard/file-delete/:fileId?: delete by id after a confirmation. */
export default function FileDeletePage() {
  const params = useParams();
  const [fileId, setFileId] = useState(params.fileId ?? '');
  const deletion = useDeleteFlow(() => setFileId(''));
  const id = fileId.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (id) deletion.ask(id, id);
  };

  return (
    <FilesPageShell title="Delete a file" intro="Enter the ID of the file to delete.">
      <form onSubmit={submit} className="max-w-xl space-y-3">
        <FileIdField value={fileId} onChange={setFileId} />
        <button type="submit" disabled={!id} className={dangerButtonClass}>
          Delete
        </button>
        {deletion.failureMessage}
      </form>
      {deletion.dialog}
    </FilesPageShell>
  );
}
