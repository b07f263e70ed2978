import { ENDPOINTS, type FileRecord, type UploadConflict } from '@atrium/contracts';
import { useReducer, useRef } from 'react';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';
import { RequestCancelledError } from '../../../lib/http';
import { uploadTo } from '../../../lib/upload';
import { foldersFor, uploadsReducer } from '../lib/browser-logic';
import type { PickedFile } from '../lib/dropped-files';

/** Files sent at once; the rest wait in the queue. */
const PARALLEL = 3;

let counter = 0;

/**
 * The upload queue of a folder: files (and whole folders — their folders are created first, so the structure is
 * kept) go up `PARALLEL` at a time, each with its progress; one can be cancelled or retried; a failure does not
 * stop the others. Large files go through tus (`uploadTo`).
 */
export function useUploadQueue(folderId: string, onUploaded: () => void) {
  const [items, dispatch] = useReducer(uploadsReducer, []);
  const jobs = useRef(
    new Map<string, { file: File; folderId: string; onConflict: UploadConflict; controller?: AbortController }>(),
  );
  const waiting = useRef<string[]>([]);
  const running = useRef(0);

  const pump = () => {
    while (running.current < PARALLEL && waiting.current.length > 0) {
      const key = waiting.current.shift() ?? '';
      const job = jobs.current.get(key);
      if (!job) continue;
      const controller = new AbortController();
      job.controller = controller;
      running.current += 1;
      dispatch({ type: 'start', key });
      uploadTo(
        job.file,
        { folderId: job.folderId, onConflict: job.onConflict },
        {
          signal: controller.signal,
          onProgress: (p) => dispatch({ type: 'progress', key, loaded: p.loaded }),
        },
      )
        .then((stored: FileRecord | undefined) => {
          dispatch({ type: 'done', key, storedName: stored?.fileName });
          onUploaded();
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted || error instanceof RequestCancelledError) dispatch({ type: 'cancelled', key });
          else dispatch({ type: 'failed', key, error: errorText(error) ?? 'Upload failed.' });
        })
        .finally(() => {
          running.current -= 1;
          pump();
        });
    }
  };

  type Entry = { key: string; file: File; folderId: string; onConflict: UploadConflict };
  const enqueue = (entries: Entry[]) => {
    for (const entry of entries) {
      jobs.current.set(entry.key, { file: entry.file, folderId: entry.folderId, onConflict: entry.onConflict });
      waiting.current.push(entry.key);
    }
    pump();
  };

  return {
    items,
    /**
     * Queues `picked` into the open folder, creating the folders their paths name first; `onConflict` says what a
     * name the folder already has does (`rename`, the server's default: `name (1).ext`; `replace`: a new version).
     */
    async add(picked: PickedFile[], onConflict: UploadConflict = 'rename'): Promise<void> {
      if (picked.length === 0) return;
      const keyed = picked.map((entry) => ({ ...entry, key: `u${(counter += 1)}` }));
      dispatch({ type: 'add', items: keyed.map(({ key, path, file }) => ({ key, name: path, size: file.size })) });
      const folderOf = new Map<string, string>([['', folderId]]);
      const failedFolders = new Map<string, string>();
      for (const path of foldersFor(keyed.map((entry) => entry.path))) {
        const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
        const parentId = folderOf.get(parent);
        if (!parentId) continue;
        try {
          const created = await call(ENDPOINTS.spaces.createFolder, {
            body: { name: path.split('/').at(-1) ?? path, parentId },
          });
          folderOf.set(path, created.id);
        } catch (error) {
          failedFolders.set(path, errorText(error) ?? 'The folder could not be created.');
        }
      }
      onUploaded();
      const ready: Entry[] = [];
      for (const entry of keyed) {
        const dir = entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/')) : '';
        const target = folderOf.get(dir);
        if (target) ready.push({ key: entry.key, file: entry.file, folderId: target, onConflict });
        else
          dispatch({
            type: 'failed',
            key: entry.key,
            error: failedFolders.get(dir) ?? 'Its folder could not be created.',
          });
      }
      enqueue(ready);
    },
    cancel(key: string) {
      const job = jobs.current.get(key);
      waiting.current = waiting.current.filter((waitingKey) => waitingKey !== key);
      job?.controller?.abort();
      dispatch({ type: 'cancelled', key });
    },
    retry(key: string) {
      const job = jobs.current.get(key);
      if (!job) return;
      dispatch({ type: 'retry', key });
      enqueue([{ key, file: job.file, folderId: job.folderId, onConflict: job.onConflict }]);
    },
    clear: () => dispatch({ type: 'clear' }),
  };
}
