import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ErrorResponse } from '@atrium/contracts';
import { AppError } from '../errors';

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Closes a request whose body stops arriving (slowloris): when no byte comes in for `idleMs`
 * while the server is reading the body, the client gets 408 `REQUEST_TIMEOUT` and the connection
 * is closed. Long uploads are never cut while their bytes keep flowing, and a body the server is
 * not reading yet (backpressure, a lock, a busy handler) does not count as stalled. Closing the
 * connection ends a tus PATCH body, so tus keeps every byte that arrived and the next HEAD
 * reports them. Only the body phase is watched: headers have Node's `headersTimeout`.
 */
export function registerBodyIdleTimeout(app: FastifyInstance, idleMs: number) {
  if (idleMs <= 0) return;
  closeStalledAfterEarlyAnswers(app, idleMs);
  app.addHook('onRequest', (request, reply, done) => {
    const req = request.raw;
    const res = reply.raw;
    if (req.complete || !hasBody(req)) return done();
    const socket = req.socket;
    const previous = socket.timeout ?? 0;
    let watching = true;
    const stop = () => {
      if (!watching) return;
      watching = false;
      res.off('timeout', onTimeout);
      req.off('end', stop);
      req.off('close', stop);
      if (!socket.destroyed) socket.setTimeout(previous);
    };
    // Node emits the socket's timeout on the current response; a listener keeps Node from destroying it.
    const onTimeout = () => {
      if (!watching) return;
      if (req.complete) return stop();
      if (req.readableFlowing !== true) {
        socket.setTimeout(idleMs);
        return;
      }
      stop();
      const error = new AppError('REQUEST_TIMEOUT');
      request.log.info({ code: error.code, statusCode: error.statusCode, idleMs }, 'request body stalled');
      if (res.headersSent) {
        socket.destroy();
        return;
      }
      reply.hijack();
      const body: ErrorResponse = { error: { code: error.code, message: error.message, requestId: request.id } };
      res.writeHead(error.statusCode, {
        'content-type': 'application/json; charset=utf-8',
        connection: 'close',
        'x-request-id': request.id,
      });
      res.end(JSON.stringify(body), () => socket.destroy());
    };
    res.on('timeout', onTimeout);
    req.once('end', stop);
    req.once('close', stop);
    socket.setTimeout(idleMs);
    done();
  });
}

/**
 * An answer sent before the body is read (401, 403 and 429 from the hooks, 413, any refusal of the router) leaves
 * the rest of the body on the wire: Node then reads it to throw it away, so that the next request on the
 * keep-alive connection can follow, and meanwhile guards the connection with the keep-alive timeout (72 s) only —
 * a body that stops arriving would hold the connection that long. Here the drain has the same idle limit as a body
 * being read: no byte for `idleMs` and the connection is closed (the answer was sent already). A client that sends
 * its whole body keeps its connection, and the keep-alive timeout applies again once the body has ended. Watched
 * on the HTTP server itself, so that answers given outside the routes (the router's refusals) are covered too.
 */
function closeStalledAfterEarlyAnswers(app: FastifyInstance, idleMs: number) {
  const server = app.server;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete || !hasBody(req)) return;
    // Node's own 'finish' listener (added before this one) has just set the keep-alive timeout: this one overrides it.
    res.once('finish', () => {
      const socket = req.socket;
      if (req.complete || socket.destroyed) return;
      // With no 'timeout' listener on the connection left, Node destroys the socket when the timer fires.
      socket.setTimeout(idleMs);
      req.once('end', () => {
        if (!socket.destroyed) socket.setTimeout(server.keepAliveTimeout);
      });
    });
  });
}
