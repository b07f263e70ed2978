import { FilesPageShell } from '../components/page';
import { FileTable } from '../components/file-table';
import { StatsCard } from '../components/stats-card';
import { UploadPanel } from '../components/upload-panel';
import { useDeleteFlow } from '../components/delete-flow';
import { useOwnerKey } from '../hooks/use-owner-key';

/** /dashboard/files: upload, list, stats and delete together. */
export default function FilesPage() {
  const userId = useOwnerKey();
  const deletion = useDeleteFlow();
  return (
    <FilesPageShell title="Files" intro="Upload, browse and manage your files.">
      <div className="grid gap-6 lg:grid-cols-2">
        <UploadPanel userId={userId} />
        <StatsCard userId={userId} />
      </div>
      <section aria-label="Your files" className="rounded-xl border border-slate-200 bg-white p-2 shadow-sm">
        <FileTable userId={userId} onDelete={deletion.ask} />
        {deletion.failureMessage}
      </section>
      {deletion.dialog}
    </FilesPageShell>
  );
}
