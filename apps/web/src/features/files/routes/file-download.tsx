import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { showToast } from '../../../lib/toast';
import { isApiError } from '../../../lib/api-error';
import { downloadUrl, getFile } from '../api/files-api';
import { FileIdField, FilesPageShell, primaryButtonClass } from '../components/page';

/** Starts a browser download of a file's bytes. */
function startDownload(id: string, fileName: string) {
  const link = document.createElement('a');
  link.href = downloadUrl(id);
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** /dashboard/file-download/:fileId?: existence check by id, then download. */
export default function FileDownloadPage() {
  const params = useParams();
  const [fileId, setFileId] = useState(params.fileId ?? '');
  const [busy, setBusy] = useState(false);
  const id = fileId.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!id) return;
    setBusy(true);
    try {
      const file = await getFile(id);
      startDownload(file.id, file.fileName);
      showToast('success', 'Download started!');
    } catch (error) {
      if (isApiError(error) && error.status === 404) showToast('error', 'File not found');
      else showToast('error', 'Failed to download file');
    } finally {
      setBusy(false);
    }
  }

  return (
    <FilesPageShell title="Download a file" intro="Enter the ID of one of your files.">
      <form onSubmit={(event) => void submit(event)} className="max-w-xl space-y-3">
        <FileIdField value={fileId} onChange={setFileId} />
        <button type="submit" disabled={!id || busy} className={primaryButtonClass}>
          {busy ? 'Checking…' : 'Download'}
        </button>
      </form>
    </FilesPageShell>
  );
}
