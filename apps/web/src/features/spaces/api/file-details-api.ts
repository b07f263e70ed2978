import { ENDPOINTS } from '@atrium/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A file's details, read afresh each time the panel opens (its activity changes with every action). Its key sits
 * under `queryKeys.files.all()`: a version restore refreshes it too.
 */
export const useFileDetails = (id: string) =>
  useQuery({
    queryKey: queryKeys.files.details(id),
    queryFn: () => call(ENDPOINTS.fileDetails.details, { params: { id } }),
    refetchOnMount: 'always',
  });
