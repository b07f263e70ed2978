import { FilesPageShell } from '../components/page';
import { YourFiles } from '../components/your-files';
import { useOwnerKey } from '../hooks/use-owner-key';

export default function FileListPage() {
  const userId = useOwnerKey();
  return (
    <FilesPageShell title="Your files">
      <YourFiles userId={userId} />
    </FilesPageShell>
  );
}
