// A graceful close that loses no request (docs/DEPLOY.md, "Upgrades and rolling restarts"): on `close()` the instance
// stops listening first, then serves every request that reached it (no 503 from Fastify: nginx cannot pass a POST
// it already sent to the other instance), answers `/readyz` 503 for balancers that check it, ends each connection
// after its answer, and closes only connections that are idle after an answer. A connection accepted just before
// the listener closed whose request has not arrived yet is not idle: destroying it (as Node's `server.close()` and
// `closeIdleConnections()` do) loses that request, which nginx answers 502. It gets `FRESH_GRACE_MS` to send it.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a connection that has sent no request yet is kept open after close() began. */
export const FRESH_GRACE_MS = 2_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether close() began: /readyz answers 503 from then on. */
    isClosing(): boolean;
  }
}

export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.decorate('isClosing', () => closing);
  /** Every open connection: when it was accepted, how many requests it has had and how many are in flight. */
  const connections = new Map<Socket, { since: number; requests: number; active: number }>();
  app.server.on('connection', (socket: Socket) => {
    connections.set(socket, { since: Date.now(), requests: 0, active: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }, response: { once(event: 'close', f: () => void): void }) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.requests++;
    state.active++;
    response.once('close', () => state.active--);
  });
  // Node's own close() and Fastify's call this: here it spares connections that have not sent a request yet.
  app.server.closeIdleConnections = () => {
    const now = Date.now();
    for (const [socket, state] of connections) {
      const idle = state.active === 0 && (state.requests > 0 || now - state.since > FRESH_GRACE_MS);
      if (idle) socket.destroy();
    }
  };
  // Registered before every module's: it runs first.
  app.addHook('preClose', async () => {
    closing = true;
    // Stop listening before the modules' own preClose hooks end the notification streams: the clients reconnect
    // at once, and would otherwise queue on this instance's listener and be reset when it closes (nginx answers a
    // POST caught the same way 502). Fastify's own close() then finds the listener closed and waits for the answers.
    if (app.server.listening) app.server.close();
    // An answer that finishes after close() began (a download) leaves its connection idle later; a fresh
    // connection's grace ends later: both are closed then.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
    idleSweep.unref();
    app.server.once('close', () => clearInterval(idleSweep));
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
}
