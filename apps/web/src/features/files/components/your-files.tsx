import { useDeleteFlow } from './delete-flow';
import { FileTable } from './file-table';

/** The caller's files as a table (cards on phones), each deletable through the confirm dialog. */
export function YourFiles({ userId }: { userId: string }) {
  const deletion = useDeleteFlow();
  return (
    <>
      <section aria-label="Your files" className="rounded-xl border border-slate-200 bg-white p-2 shadow-sm">
        <FileTable userId={userId} onDelete={deletion.ask} />
        {deletion.failureMessage}
      </section>
      {deletion.dialog}
    </>
  );
}
