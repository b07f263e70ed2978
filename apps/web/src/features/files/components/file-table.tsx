import type { FileRecord } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { TableHead, type TableColumn } from '../../../components/ui/table-head';
import { useFiles } from '../api/files-api';
import { useWideScreen } from '../hooks/use-wide-screen';
import { FileRowMenu } from './row-menu';

const formatDate = (iso: string) => new Date(iso).toLocaleString();

const COLUMNS: TableColumn[] = [
  { label: 'Name', className: 'px-3 py-2' },
  { label: 'Size', className: 'w-28 px-3 py-2' },
  { label: 'Type', className: 'hidden w-44 px-3 py-2 lg:table-cell' },
  { label: 'Uploaded', className: 'w-48 px-3 py-2' },
];

interface FileRowsProps {
  files: FileRecord[];
  onDelete?: ((file: FileRecord) => void) | undefined;
}

function FileRowsTable({ files, onDelete }: FileRowsProps) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <caption className="sr-only">Your files</caption>
      <TableHead columns={COLUMNS} />
      <tbody>
        {files.map((file) => (
          <tr key={file.id} className="border-b border-slate-100 last:border-0">
            <td className="truncate px-3 py-2 font-medium text-slate-900" title={file.fileName}>
              {file.fileName}
            </td>
            <td className="px-3 py-2 whitespace-nowrap">{formatBytes(file.size)}</td>
            <td className="hidden truncate px-3 py-2 text-slate-600 lg:table-cell" title={file.contentType}>
              {file.contentType}
            </td>
            <td className="px-3 py-2 whitespace-nowrap text-slate-600">{formatDate(file.uploadDate)}</td>
            <td className="px-1 py-1 text-right">
              <FileRowMenu file={file} onDelete={onDelete} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Below 640 px: one card per file (name, size, date, the row menu), so nothing scrolls sideways. */
function FileRowsCards({ files, onDelete }: FileRowsProps) {
  return (
    <ul aria-label="Your files" className="divide-y divide-slate-100">
      {files.map((file) => (
        <li key={file.id} className="flex items-center gap-2 px-2 py-2">
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium text-slate-900" title={file.fileName}>
              {file.fileName}
            </p>
            <p className="text-xs text-slate-600">
              {formatBytes(file.size)} · {formatDate(file.uploadDate)}
            </p>
          </div>
          <FileRowMenu file={file} onDelete={onDelete} />
        </li>
      ))}
    </ul>
  );
}

/** The user's files (a table, or cards on a phone) with a row menu each; loading, empty and error states. */
export function FileTable({ userId, onDelete }: { userId: string; onDelete?: (file: FileRecord) => void }) {
  const files = useFiles(userId);
  const wide = useWideScreen();
  if (files.isPending) return <Spinner label="Loading files…" />;
  if (files.isError) {
    return <Alert className="p-4">Could not load files.</Alert>;
  }
  if (files.data.length === 0) return <p className="p-4 text-sm text-slate-600">No files uploaded yet.</p>;
  return wide ? (
    <FileRowsTable files={files.data} onDelete={onDelete} />
  ) : (
    <FileRowsCards files={files.data} onDelete={onDelete} />
  );
}
