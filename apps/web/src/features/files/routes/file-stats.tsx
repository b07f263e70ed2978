import { FilesPageShell } from '../components/page';
import { StatsCard } from '../components/stats-card';
import { useOwnerKey } from '../hooks/use-owner-key';

export default function FileStatsPage() {
  const userId = useOwnerKey();
  return (
    <FilesPageShell title="File statistics">
      <StatsCard userId={userId} />
    </FilesPageShell>
  );
}
