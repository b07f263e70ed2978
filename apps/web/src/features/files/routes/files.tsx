import { FilesPageShell } from '../components/page';
import { StatsCard } from '../components/stats-card';
import { UploadPanel } from '../components/upload-panel';
import { YourFiles } from '../components/your-files';
import { useOwnerKey } from '../hooks/use-owner-key';

/** /dashboard/files: upload, list, stats and delete together. */
export default function FilesPage() {
  const userId = useOwnerKey();
  return (
    <FilesPageShell title="Files" intro="Upload, browse and manage your files.">
      <div className="grid gap-6 lg:grid-cols-2">
        <UploadPanel userId={userId} />
        <StatsCard userId={userId} />
      </div>
      <YourFiles userId={userId} />
    </FilesPageShell>
  );
}
