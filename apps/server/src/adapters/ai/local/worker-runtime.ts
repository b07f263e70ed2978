/**
 * Worker side of the pool protocol. A worker entry file calls `serveWorker(start)`:
 * `start` loads the engine (models, native libraries) and returns the job handler.
 */
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { serializeError, type SerializedError } from './errors.js';

export type MainToWorker = { type: 'job'; id: number; payload: unknown };

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'start-error'; error: SerializedError }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: SerializedError };

export interface JobResult<Res> {
  value: Res;
  transfer?: TransferListItem[];
}

export type JobHandler<Req, Res> = (payload: Req) => Promise<JobResult<Res>>;

export function serveWorker<Req, Res, Data>(start: (data: Data) => Promise<JobHandler<Req, Res>>): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker() must run inside a worker thread');
  const post = (msg: WorkerToMain, transfer?: TransferListItem[]): void => {
    port.postMessage(msg, transfer);
  };
  start(workerData as Data).then(
    (handler) => {
      port.on('message', (msg: MainToWorker) => {
        if (msg.type !== 'job') return;
        handler(msg.payload as Req).then(
          (result) => post({ type: 'result', id: msg.id, ok: true, value: result.value }, result.transfer),
          (error: unknown) => post({ type: 'result', id: msg.id, ok: false, error: serializeError(error) }),
        );
      });
      post({ type: 'ready' });
    },
    (error: unknown) => post({ type: 'start-error', error: serializeError(error) }),
  );
}
