import type { FileRecord } from '@atrium/contracts';
import { Download, Trash2 } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { downloadUrl, useFiles } from '../api/files-api';

const formatDate = (iso: string) => new Date(iso).toLocaleString();

/** The user's files: name, size, type, upload date; loading, empty and error states. */
export function FileTable({ userId, onDelete }: { userId: string; onDelete?: (file: FileRecord) => void }) {
  const files = useFiles(userId);
  if (files.isPending) return <Spinner label="Loading files…" />;
  if (files.isError) {
    return (
      <p role="alert" className="p-4 text-sm text-red-700">
        Could not load files.
      </p>
    );
  }
  if (files.data.length === 0) return <p className="p-4 text-sm text-slate-600">No files uploaded yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">Your files</caption>
        <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2">
              Size
            </th>
            <th scope="col" className="px-3 py-2">
              Type
            </th>
            <th scope="col" className="px-3 py-2">
              Uploaded
            </th>
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {files.data.map((file) => (
            <tr key={file.id} className="border-b border-slate-100 last:border-0">
              <td className="max-w-[16rem] truncate px-3 py-2 font-medium text-slate-900" title={file.fileName}>
                {file.fileName}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">{formatBytes(file.size)}</td>
              <td className="px-3 py-2 text-slate-600">{file.contentType}</td>
              <td className="px-3 py-2 whitespace-nowrap text-slate-600">{formatDate(file.uploadDate)}</td>
              <td className="px-3 py-2">
                <div className="flex justify-end gap-2">
                  <a
                    href={downloadUrl(file.id)}
                    download={file.fileName}
                    className="inline-flex items-center rounded p-1.5 text-slate-600 hover:bg-slate-100 hover:text-brand-700"
                    aria-label={`Download ${file.fileName}`}
                  >
                    <Download aria-hidden="true" className="size-4" />
                  </a>
                  {onDelete && (
                    <button
                      type="button"
                      onClick={() => onDelete(file)}
                      className="inline-flex items-center rounded p-1.5 text-slate-600 hover:bg-red-50 hover:text-red-700"
                      aria-label={`Delete ${file.fileName}`}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
