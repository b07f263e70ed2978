import type { PersonPhotos, PersonSummary } from '@atrium/contracts';
import { pageHref, PAGES } from '@atrium/contracts/pages';
import { ArrowLeft, ScanFace, UserX } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { spacesQueryOptions } from '../../../lib/queries/spaces';
import {
  useMergePeople,
  usePeople,
  usePerson,
  useRemoveFace,
  useRenamePerson,
  useSetPeople,
  useSplitPerson,
} from '../api/people-api';
import { thumbnailUrl } from '../../../lib/file-urls';
import { FaceCrop } from '../components/face-crop';

const nameOf = (person: Pick<PersonSummary, 'name'>) => person.name ?? 'Unnamed person';
const photos = (n: number) => `${n} ${n === 1 ? 'photo' : 'photos'}`;

/** The switch that turns People on or off for the space (owners), with what it means for the face data. */
function PeopleSwitch({ spaceId, enabled }: { spaceId: string; enabled: boolean }) {
  const change = useSetPeople(spaceId);
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        className={buttonClass(enabled ? 'secondary' : 'primary')}
        disabled={change.isPending}
        onClick={() =>
          change.mutate(!enabled, {
            onSuccess: (saved) =>
              showToast(
                'success',
                saved.enabled
                  ? 'People is on. Photos are being analysed for faces.'
                  : 'People is off. Face data of this space was deleted.',
              ),
          })
        }
      >
        {enabled ? 'Turn People off' : 'Turn People on'}
      </button>
      {change.isError && <Alert>{errorText(change.error)}</Alert>}
    </div>
  );
}

/** Merge another person into `person`: a dialog listing the space's other people. */
function MergeDialog({
  spaceId,
  person,
  people,
  onClose,
}: {
  spaceId: string;
  person: PersonSummary;
  people: PersonSummary[];
  onClose: () => void;
}) {
  const id = useId();
  const merge = useMergePeople(spaceId);
  const others = people.filter((other) => other.id !== person.id);
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <Dialog
      open
      title={`Merge into ${nameOf(person)}`}
      description="Choose the person who is the same as this one. Their photos move here."
      onClose={onClose}
      footer={
        <>
          <button type="button" className={buttonClass('secondary')} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={chosen === null || merge.isPending}
            onClick={() =>
              chosen &&
              merge.mutate(
                { personId: person.id, fromId: chosen },
                {
                  onSuccess: () => {
                    showToast('success', 'People merged.');
                    onClose();
                  },
                },
              )
            }
          >
            Merge
          </button>
        </>
      }
    >
      {others.length === 0 ? (
        <p className="text-sm text-slate-600">There is nobody else to merge with.</p>
      ) : (
        <fieldset>
          <legend className="sr-only">Person to merge</legend>
          <ul className="max-h-72 space-y-1 overflow-y-auto">
            {others.map((other) => (
              <li key={other.id}>
                <label
                  htmlFor={`${id}-${other.id}`}
                  className="flex cursor-pointer items-center gap-3 rounded-lg p-2 hover:bg-slate-50"
                >
                  <input
                    id={`${id}-${other.id}`}
                    type="radio"
                    name={`${id}-merge`}
                    checked={chosen === other.id}
                    onChange={() => setChosen(other.id)}
                    className="accent-brand-600"
                  />
                  {other.cover && <FaceCrop fileId={other.cover.fileId} box={other.cover.box} className="size-10" />}
                  <span className="text-sm text-slate-900">
                    {nameOf(other)} <span className="text-slate-500">· {photos(other.photoCount)}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {merge.isError && <Alert className="mt-2">{errorText(merge.error)}</Alert>}
    </Dialog>
  );
}

const faces = (n: number) => `${n} ${n === 1 ? 'face' : 'faces'}`;

/**
 * One person: inline rename, merge, split (choose the faces that are someone else: they become a new person, who
 * opens next), and their photos with the face boxes ("Not this person" per face).
 */
function PersonDetail({
  spaceId,
  person,
  people,
  canEdit,
  onBack,
  onOpen,
}: {
  spaceId: string;
  person: PersonSummary;
  people: PersonSummary[];
  canEdit: boolean;
  onBack: () => void;
  onOpen: (personId: string) => void;
}) {
  const detail = usePerson(spaceId, person.id);
  const rename = useRenamePerson(spaceId);
  const remove = useRemoveFace(spaceId);
  const split = useSplitPerson(spaceId);
  const [name, setName] = useState(person.name ?? '');
  const [merging, setMerging] = useState(false);
  /** The faces chosen to split off, or null when not splitting. */
  const [chosen, setChosen] = useState<string[] | null>(null);
  const data: PersonPhotos | undefined = detail.data;
  const toggle = (faceId: string) =>
    setChosen((now) => (now?.includes(faceId) ? now.filter((id) => id !== faceId) : [...(now ?? []), faceId]));
  return (
    <section aria-labelledby="person-heading" className="space-y-4">
      <button type="button" onClick={onBack} className="inline-flex items-center gap-1 text-sm text-brand-700">
        <ArrowLeft className="size-4" aria-hidden="true" /> All people
      </button>
      <div className="flex flex-wrap items-end gap-4">
        {person.cover && <FaceCrop fileId={person.cover.fileId} box={person.cover.box} className="size-20" />}
        <div className="min-w-0 flex-1">
          <h2 id="person-heading" className="truncate text-lg font-semibold text-slate-900">
            {nameOf(person)}
          </h2>
          <p className="text-sm text-slate-600">{photos(person.photoCount)}</p>
        </div>
      </div>
      {canEdit && (
        <div className="flex flex-wrap items-end gap-2">
          <form
            className="flex min-w-0 flex-1 flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              rename.mutate(
                { personId: person.id, name },
                { onSuccess: () => showToast('success', name.trim() ? `Named ${name.trim()}.` : 'Name removed.') },
              );
            }}
          >
            <TextField
              label="Name"
              value={name}
              onChange={setName}
              maxLength={100}
              className="min-w-0 flex-1 basis-48"
              error={rename.isError ? errorText(rename.error) : null}
            />
            <button type="submit" className={buttonClass('primary')} disabled={rename.isPending}>
              Save name
            </button>
          </form>
          <button type="button" className={buttonClass('secondary')} onClick={() => setMerging(true)}>
            Merge…
          </button>
          <button
            type="button"
            className={buttonClass('secondary')}
            aria-pressed={chosen !== null}
            onClick={() => setChosen((now) => (now === null ? [] : null))}
          >
            Split…
          </button>
        </div>
      )}
      {canEdit && chosen !== null && (
        <div
          role="group"
          aria-label="Split"
          className="flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-slate-800"
        >
          <p className="min-w-0 flex-1 basis-48" aria-live="polite">
            {chosen.length === 0
              ? 'Choose the faces that are someone else: they become a new person.'
              : `${faces(chosen.length)} chosen.`}
          </p>
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={chosen.length === 0 || split.isPending}
            onClick={() =>
              split.mutate(
                { personId: person.id, faceIds: chosen },
                {
                  onSuccess: (created) => {
                    showToast('success', `Moved ${faces(chosen.length)} to a new person.`);
                    setChosen(null);
                    onOpen(created.id);
                  },
                },
              )
            }
          >
            Move to a new person
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={() => setChosen(null)}>
            Cancel
          </button>
          {split.isError && <Alert className="w-full">{errorText(split.error)}</Alert>}
        </div>
      )}
      {detail.isPending && <Spinner label="Loading photos…" />}
      {detail.isError && <Alert>{errorText(detail.error)}</Alert>}
      {data && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={`Photos of ${nameOf(person)}`}>
          {data.photos.map((photo) => (
            <li key={photo.fileId} className="overflow-hidden rounded-lg border border-slate-200 bg-white">
              <div className="relative">
                <img src={thumbnailUrl(photo.fileId)} alt={photo.fileName} className="block w-full" loading="lazy" />
                {photo.faces.map((face) => (
                  <span
                    key={face.id}
                    aria-hidden="true"
                    className="absolute rounded border-2 border-brand-500"
                    style={{
                      left: `${face.box.left * 100}%`,
                      top: `${face.box.top * 100}%`,
                      width: `${face.box.width * 100}%`,
                      height: `${face.box.height * 100}%`,
                    }}
                  />
                ))}
              </div>
              <div className="flex items-center justify-between gap-2 p-2">
                <span className="truncate text-xs text-slate-700" title={photo.fileName}>
                  {photo.fileName}
                </span>
                {canEdit &&
                  chosen !== null &&
                  photo.faces.map((face, index) => (
                    <label key={face.id} className="flex shrink-0 items-center gap-1 text-xs text-slate-700">
                      <input
                        type="checkbox"
                        className="size-4 accent-brand-600"
                        checked={chosen.includes(face.id)}
                        onChange={() => toggle(face.id)}
                      />
                      <span className="sr-only">
                        {photo.faces.length === 1
                          ? `Choose the face in ${photo.fileName}`
                          : `Choose face ${index + 1} in ${photo.fileName}`}
                      </span>
                    </label>
                  ))}
                {canEdit &&
                  chosen === null &&
                  photo.faces.map((face) => (
                    <button
                      key={face.id}
                      type="button"
                      title="Not this person"
                      aria-label={`Not ${nameOf(person)}: remove this face in ${photo.fileName}`}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(
                          { personId: person.id, faceId: face.id },
                          {
                            onSuccess: () => {
                              showToast('success', 'Face removed from this person.');
                              void detail.refetch();
                            },
                          },
                        )
                      }
                      className="shrink-0 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                    >
                      <UserX className="size-4" aria-hidden="true" />
                    </button>
                  ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      {remove.isError && <Alert>{errorText(remove.error)}</Alert>}
      {merging && <MergeDialog spaceId={spaceId} person={person} people={people} onClose={() => setMerging(false)} />}
    </section>
  );
}

/**
 * /dashboard/spaces/{personal | workspaceId}/people: the people found in a space's photos (docs/PRODUCT.md#people).
 * A grid of person cards (face, name, number of photos); a card opens the person's photos with inline rename, merge,
 * split and "Not this person". Off by default: the empty state says what People does with face data and how to
 * turn it on.
 */
export default function PeoplePage() {
  const { workspaceId } = useParams();
  const spaceId = workspaceId ?? 'personal';
  const spaces = useQuery(spacesQueryOptions());
  const space = spaces.data?.find((s) =>
    workspaceId ? s.kind === 'workspace' && s.id === workspaceId : s.kind === 'personal',
  );
  const spaceName = space?.name ?? (workspaceId ? 'Workspace' : 'Personal');
  useDocumentTitle(`People · ${spaceName}`);
  const people = usePeople(spaceId);
  const [selected, setSelected] = useState<string | null>(null);
  const list = people.data?.people ?? [];
  const person = list.find((p) => p.id === selected);

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-4 sm:p-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="flex items-center gap-2 text-xl font-semibold text-slate-900">
            <ScanFace className="size-6 text-brand-600" aria-hidden="true" /> People
          </h1>
          <p className="truncate text-sm text-slate-600">in {spaceName}</p>
        </div>
        {people.data?.canManage && <PeopleSwitch spaceId={spaceId} enabled={people.data.enabled} />}
      </header>
      {people.isPending && <Spinner label="Loading people…" />}
      {people.isError && <Alert>{errorText(people.error)}</Alert>}
      {people.data && !people.data.enabled && (
        <section className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
          <h2 className="text-base font-semibold text-slate-900">People is off for this space</h2>
          <p className="mt-2">
            When People is on, the faces in this space&apos;s photos are grouped into people, so you can name them and
            find their photos by name. It uses the server&apos;s own face engine: face data never leaves this server.
          </p>
          <p className="mt-2">
            {people.data.canManage
              ? 'Turn People on above. Turning it off later deletes the face data and people of this space.'
              : 'Ask an owner of this workspace to turn People on.'}
          </p>
          {workspaceId && (
            <p className="mt-2">
              <Link className="text-brand-700 underline" to={pageHref(PAGES.members, { workspaceId })}>
                Workspace settings
              </Link>
            </p>
          )}
        </section>
      )}
      {people.data?.enabled && list.length === 0 && (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
          No people found yet. Photos are analysed in the background; people appear here as their faces are found.
        </p>
      )}
      {people.data?.enabled && person && (
        <PersonDetail
          key={person.id}
          spaceId={spaceId}
          person={person}
          people={list}
          canEdit={people.data.canEdit}
          onBack={() => setSelected(null)}
          onOpen={setSelected}
        />
      )}
      {people.data?.enabled && !person && list.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5" aria-label="People">
          {list.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                onClick={() => setSelected(p.id)}
                className="flex w-full flex-col items-center gap-2 rounded-xl border border-slate-200 bg-white p-4 text-center hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                {p.cover ? (
                  <FaceCrop fileId={p.cover.fileId} box={p.cover.box} />
                ) : (
                  <div aria-hidden="true" className="size-24 rounded-full bg-slate-200" />
                )}
                <span className="w-full truncate text-sm font-medium text-slate-900">{nameOf(p)}</span>
                <span className="text-xs text-slate-600">{photos(p.photoCount)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
