import { ENDPOINTS } from '@atrium/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

/** The query key of a file's details (under `['files']`: a version restore refreshes it too). */
export const fileDetailsKey = (id: string) => ['files', 'details', id] as const;

/** A file's details, read afresh each time the panel opens (its activity changes with every action). */
export const useFileDetails = (id: string) =>
  useQuery({
    queryKey: fileDetailsKey(id),
    queryFn: () => call(ENDPOINTS.fileDetails.details, { params: { id } }),
    refetchOnMount: 'always',
  });
