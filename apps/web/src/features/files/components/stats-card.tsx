import { useEffect } from 'react';
import { showToast } from '../../../lib/toast';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useFileStats } from '../api/files-api';

/** File count and total size; 'Could not load stats.' inline and a toast on failure. */
export function StatsCard({ userId }: { userId: string }) {
  const stats = useFileStats(userId);
  const failed = stats.isError;
  useEffect(() => {
    if (failed) showToast('error', 'Failed to load file statistics');
  }, [failed]);

  return (
    <section aria-label="File statistics" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">File statistics</h2>
      {stats.isPending ? (
        <Spinner label="Loading stats…" />
      ) : stats.isError ? (
        <Alert className="mt-3">Could not load stats.</Alert>
      ) : (
        <dl className="mt-4 grid grid-cols-2 gap-4">
          <div>
            <dt className="text-sm text-slate-500">Files</dt>
            <dd className="text-2xl font-semibold text-slate-900" data-testid="stats-count">
              {stats.data.fileCount}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-500">Total size</dt>
            <dd className="text-2xl font-semibold text-slate-900" data-testid="stats-size">
              {formatBytes(stats.data.sizeInBytes)}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
