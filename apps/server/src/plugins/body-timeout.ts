import type { IncomingMessage } from 'node:http';
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
