import { PeopleList, PeopleSettings, PersonPhotos, PersonSummary } from '@atrium/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';

/** `personal` or a workspace id, as in `/api/spaces/{spaceId}/people`. */
const base = (spaceId: string) => `/api/spaces/${encodeURIComponent(spaceId)}/people`;

export const peopleKeys = {
  all: (spaceId: string) => ['people', spaceId] as const,
  person: (spaceId: string, personId: string) => ['people', spaceId, personId] as const,
};

export const usePeople = (spaceId: string) =>
  useQuery({ queryKey: peopleKeys.all(spaceId), queryFn: () => api.get(PeopleList, base(spaceId)) });

export const usePerson = (spaceId: string, personId: string | null) =>
  useQuery({
    queryKey: peopleKeys.person(spaceId, personId ?? ''),
    queryFn: () => api.get(PersonPhotos, `${base(spaceId)}/${encodeURIComponent(personId ?? '')}`),
    enabled: personId !== null,
  });

/** Every change to a space's people: refetches the space's people afterwards. */
function usePeopleChange<A, R>(spaceId: string, run: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.all(spaceId) }),
  });
}

export const useSetPeople = (spaceId: string) =>
  usePeopleChange(spaceId, (enabled: boolean) => api.put(PeopleSettings, `${base(spaceId)}/settings`, { enabled }));

export const useRenamePerson = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, name }: { personId: string; name: string }) =>
    api.patch(PersonSummary, `${base(spaceId)}/${encodeURIComponent(personId)}`, { name: name.trim() || null }),
  );

export const useMergePeople = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, fromId }: { personId: string; fromId: string }) =>
    api.post(PersonSummary, `${base(spaceId)}/${encodeURIComponent(personId)}/merge`, { personId: fromId }),
  );

/** Moves some of a person's faces to a new, unnamed person (`split`), whom it answers with. */
export const useSplitPerson = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, faceIds }: { personId: string; faceIds: string[] }) =>
    api.post(PersonSummary, `${base(spaceId)}/${encodeURIComponent(personId)}/split`, { faceIds }),
  );

export const useRemoveFace = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, faceId }: { personId: string; faceId: string }) =>
    api.delete(
      z.object({ removed: z.literal(true) }),
      `${base(spaceId)}/${encodeURIComponent(personId)}/faces/${encodeURIComponent(faceId)}`,
    ),
  );
