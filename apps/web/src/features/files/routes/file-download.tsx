import { useState } from 'react';
import { useParams } from 'react-router';
import { downloadUrl } from '../../../lib/file-urls';
import { showToast } from '../../../lib/toast';
import { FileIdForm } from '../components/file-id-form';
import { FilesPageShell } from '../components/page';

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

  return (
    <FilesPageShell title="Download a file" intro="Enter the ID of one of your files.">
      <FileIdForm
        fileId={fileId}
        onFileIdChange={setFileId}
        submitLabel="Download"
        variant="primary"
        failureMessage="Failed to download file"
        onFound={(file) => {
          startDownload(file.id, file.fileName);
          showToast('success', 'Download started!');
        }}
      />
    </FilesPageShell>
  );
}
