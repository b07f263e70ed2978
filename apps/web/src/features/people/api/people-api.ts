import { ENDPOINTS } from '@atrium/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

// `spaceId`: `personal` or a workspace id.
const { people } = ENDPOINTS;

export const peopleKeys = {
  all: (spaceId: string) => ['people', spaceId] as const,
  person: (spaceId: string, personId: string) => ['people', spaceId, personId] as const,
};

export const usePeople = (spaceId: string) =>
  useQuery({ queryKey: peopleKeys.all(spaceId), queryFn: () => call(people.list, { params: { spaceId } }) });

export const usePerson = (spaceId: string, personId: string | null) =>
  useQuery({
    queryKey: peopleKeys.person(spaceId, personId ?? ''),
    queryFn: () => call(people.photos, { params: { spaceId, personId: personId ?? '' } }),
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
  usePeopleChange(spaceId, (enabled: boolean) => call(people.settings, { params: { spaceId }, body: { enabled } }));

export const useRenamePerson = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, name }: { personId: string; name: string }) =>
    call(people.rename, { params: { spaceId, personId }, body: { name: name.trim() || null } }),
  );

export const useMergePeople = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, fromId }: { personId: string; fromId: string }) =>
    call(people.merge, { params: { spaceId, personId }, body: { personId: fromId } }),
  );

/** Moves some of a person's faces to a new, unnamed person (`split`), whom it answers with. */
export const useSplitPerson = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, faceIds }: { personId: string; faceIds: string[] }) =>
    call(people.split, { params: { spaceId, personId }, body: { faceIds } }),
  );

export const useRemoveFace = (spaceId: string) =>
  usePeopleChange(spaceId, ({ personId, faceId }: { personId: string; faceId: string }) =>
    call(people.removeFace, { params: { spaceId, personId, faceId } }),
  );
