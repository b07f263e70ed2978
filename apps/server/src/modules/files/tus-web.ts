import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@tus/server';

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
  { path, bind }: { path: string; bind?: (request: Request) => void },
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
  let response: Response;
  try {
    response = await tus.handleWeb(request);
  } catch {
    response = new Response('The upload could not be handled.\n', { status: 500 });
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body.length > 0 ? body : undefined);
}
