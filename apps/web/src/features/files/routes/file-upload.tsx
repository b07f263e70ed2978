import { FilesPageShell } from '../components/page';
import { UploadPanel } from '../components/upload-panel';
import { useOwnerKey } from '../hooks/use-owner-key';

export default function FileUploadPage() {
  const userId = useOwnerKey();
  return (
    <FilesPageShell title="Upload a file" intro="Pick files or drop them below; they upload one after another.">
      <UploadPanel userId={userId} />
    </FilesPageShell>
  );
}
