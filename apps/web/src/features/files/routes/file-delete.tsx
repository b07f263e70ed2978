import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { showToast } from '../../../lib/toast';
import { isApiError } from '../../../lib/api-error';
import { getFile } from '../api/files-api';
import { dangerButtonClass, FileIdField, FilesPageShell } from '../components/page';
import { useDeleteFlow } from '../components/delete-flow';

/**
 * /dashboard/file-delete/:fileId?: looks the id up first — 'File not found' and no dialog for an id
 * the caller has no file by; otherwise a confirmation naming the file, its size and date.
 */
export default function FileDeletePage() {
  const params = useParams();
  const [fileId, setFileId] = useState(params.fileId ?? '');
  const [busy, setBusy] = useState(false);
  const deletion = useDeleteFlow(() => setFileId(''));
  const id = fileId.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!id) return;
    setBusy(true);
    try {
      deletion.ask(await getFile(id));
    } catch (error) {
      showToast('error', isApiError(error) && error.status === 404 ? 'File not found' : 'Failed to delete file.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <FilesPageShell title="Delete a file" intro="Enter the ID of the file to delete.">
      <form onSubmit={(event) => void submit(event)} className="max-w-xl space-y-3">
        <FileIdField value={fileId} onChange={setFileId} />
        <button type="submit" disabled={!id || busy} className={dangerButtonClass}>
          {busy ? 'Checking…' : 'Delete'}
        </button>
        {deletion.failureMessage}
      </form>
      {deletion.dialog}
    </FilesPageShell>
  );
}
