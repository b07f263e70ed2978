import { FilesPageShell } from '../components/page';
import { UploadPanel } from '../components/upload-panel';
import { useOwnerKey } from '../hooks/use-owner-key';

export default function FileUploadPage() {
  const userId = useOwnerKey();
  return (
    <FilesPageShell title="Upload a file" intro="Pick a file or drop it below.">
      <UploadPanel userId={userId} />
    </FilesPageShell>
  );
}
