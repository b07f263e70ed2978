import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import { ERROR_STATUS, type ErrorCode, type ErrorResponse } from '@atrium/contracts';

/** Chunks the body stream holds before it pauses the socket (64 KiB each: about 1 MiB). */
const QUEUED_CHUNKS = 16;

/**
 * The request body as a web stream of the very Buffers the socket delivers.
 *
 * A client that goes away ends the body instead of failing it, so tus stores and acknowledges
 * every byte that arrived, and the next HEAD resumes from there.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const end = () => {
          if (!open) return;
          open = false;
          controller.close();
        };
        req.on('data', (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', end);
        req.once('error', end);
        req.once('close', end);
      },
      pull() {
        req.resume();
      },
      cancel() {
        // tus stopped reading (another request took the upload over): the response closes the connection.
        req.pause();
      },
    },
    { highWaterMark: QUEUED_CHUNKS },
  );
}

/** The log of the Fastify request each tus request came from, so tus's hooks log with its request id. */
const logs = new WeakMap<Request, FastifyBaseLogger>();

/**
 * Logs a failure tus is about to answer with 5xx (its `onResponseError` hook), with the request id and the cause:
 * tus itself answers "something went wrong" and keeps the error to itself. `cause` on a thrown answer is the
 * error behind it (see onUploadFinish).
 */
export function logTusFailure(request: Request, error: unknown): void {
  const status =
    typeof error === 'object' && error !== null && 'status_code' in error ? Number(error.status_code) : 500;
  if (status < 500) return;
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? error.cause : error;
  logs.get(request)?.error({ err: cause, statusCode: status }, 'upload failed');
}

/** The project's error code for a status tus answers (409 CONFLICT, 413 PAYLOAD_TOO_LARGE, 412/460… BAD_REQUEST). */
const codeFor = (status: number): ErrorCode =>
  (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => ERROR_STATUS[code] === status) ??
  (status < 500 ? 'BAD_REQUEST' : 'INTERNAL');

/**
 * Serves one tus request through @tus/server's web API (`handleWeb`).
 *
 * Its Node entry point (`handle`) turns the body into a web stream with `Readable.toWeb`, which in
 * Node 20 copies every chunk: a 1 GiB upload allocated another GiB and spent 2.4 s of the main
 * thread collecting it. Here the body's Buffers go through as they are.
 *
 * tus sees `path` as the whole URL, not the client's: it takes the upload id from the end of the
 * URL, query string included, so the caller passes the path its own checks resolved (no query).
 * `bind` receives the request tus's hooks will get, so the caller can attach what it decided.
 */
export async function handleTusRequest(
  tus: Server,
  req: IncomingMessage,
  res: ServerResponse,
  {
    path,
    requestId,
    log,
    bind,
  }: { path: string; requestId: string; log: FastifyBaseLogger; bind?: (request: Request) => void },
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const hasBody = method === 'POST' || method === 'PATCH';
  const request = new Request(new URL(path, 'http://localhost'), {
    method,
    headers,
    ...(hasBody ? { body: bodyOf(req), duplex: 'half' } : {}),
  } as RequestInit);
  bind?.(request);
  logs.set(request, log);
  let response: Response;
  try {
    response = await tus.handleWeb(request);
  } catch (error) {
    log.error({ err: error }, 'upload failed');
    response = new Response('The upload could not be handled.\n', { status: 500 });
  }
  let body = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  const answerHeaders: Record<string, string> = Object.fromEntries(response.headers);
  // tus answers its protocol errors in plain text: send them in the project's JSON error shape,
  // keeping tus's status (clients act on 409, 410, 412…) and its message.
  if (response.status >= 400 && method !== 'HEAD' && !answerHeaders['content-type']?.startsWith('application/json')) {
    const message = (response.status < 500 && body.toString('utf8').trim()) || 'The upload could not be handled.';
    const error: ErrorResponse = { error: { code: codeFor(response.status), message, requestId } };
    body = Buffer.from(JSON.stringify(error));
    answerHeaders['content-type'] = 'application/json; charset=utf-8';
    answerHeaders['content-length'] = String(body.length);
  }
  res.writeHead(response.status, answerHeaders);
  res.end(body.length > 0 ? body : undefined);
}
