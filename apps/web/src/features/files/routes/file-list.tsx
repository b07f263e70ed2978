import { FilesPageShell } from '../components/page';
import { FileTable } from '../components/file-table';
import { useDeleteFlow } from '../components/delete-flow';
import { useOwnerKey } from '../hooks/use-owner-key';

export default function FileListPage() {
  const userId = useOwnerKey();
  const deletion = useDeleteFlow();
  return (
    <FilesPageShell title="Your files">
      <section aria-label="Your files" className="rounded-xl border border-slate-200 bg-white p-2 shadow-sm">
        <FileTable userId={userId} onDelete={deletion.ask} />
        {deletion.failureMessage}
      </section>
      {deletion.dialog}
    </FilesPageShell>
  );
}
