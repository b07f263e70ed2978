import { FileDetails } from '@atrium/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The query key of a file's details (under `['files']`: a version restore refreshes it too). */
export const fileDetailsKey = (id: string) => ['files', 'details', id] as const;

/** GET /api/files/{id}/details, read afresh each time the panel opens (its activity changes with every action). */
export const useFileDetails = (id: string) =>
  useQuery({
    queryKey: fileDetailsKey(id),
    queryFn: () => api.get(FileDetails, `/api/files/${encodeURIComponent(id)}/details`),
    refetchOnMount: 'always',
  });
