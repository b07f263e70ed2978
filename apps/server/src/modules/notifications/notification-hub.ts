import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../../adapters/event-bus';
import type { SessionEnd } from '../auth';
import {
  FIRST_CHUNK,
  FIRST_FRAME,
  formatEvent,
  LAST_CHUNK,
  parseSessionEnd,
  responseHead,
  SSE_HEADERS,
  toFrame,
  type Frame,
  type ResponseHeaders,
} from './notification-frames';
import { audienceOf, type NotificationRow, type NotificationsRepository } from './notifications.repository';

export { parseLastEventId, parseSessionEnd, presentNotification } from './notification-frames';

export const NOTIFICATIONS_CHANNEL = 'notifications';
/** Announces `SessionEnd`s, so every instance ends the streams of a session signed out elsewhere. */
export const STREAMS_END_CHANNEL = 'notification-streams:end';
/** A client that stops reading is dropped once this much is queued for it; it reconnects and replays. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const REPLAY_PAGE = 500;

interface Connection {
  userId: string;
  /** The session the stream was opened with: the stream ends with it. */
  sessionId: string;
  res: ServerResponse;
  /** Highest id written to this connection: never write an id twice or go backwards. */
  sentUpTo: number;
  /** Live notifications held back while the replay is being written. */
  pending: NotificationRow[] | null;
  /** Whether the response uses HTTP/1.1 chunked framing (then frames go straight to the socket). */
  chunked: boolean;
  /**
   * HTTP/1.1 streams: the socket this hub writes the whole response to (head, chunks, the last chunk), without
   * ServerResponse. Null for the others (HTTP/1.0: ServerResponse frames them).
   */
  socket: Socket | null;
}

/**
 * Live notification streams of this instance. Every instance learns about new
 * notifications from the bus (its own included) and writes them to its
 * connections in id order: the next id is written straight from the bus
 * message; a gap (a message lost or overtaken) is filled from the database.
 */
export function createNotificationHub(deps: {
  repo: NotificationsRepository;
  bus: EventBus;
  heartbeatMs: number;
  log: FastifyBaseLogger;
  /** Which of these sessions are still valid; checked on the heartbeat timer, so expired sessions' streams end. */
  liveSessions: (sessionIds: readonly string[]) => Promise<Set<string>>;
  /** Called once per notification this instance delivered live, with how many of its streams it went to. */
  onDelivered?: (row: NotificationRow, streams: number) => void;
}) {
  const connections = new Set<Connection>();
  const byUser = new Map<string, Set<Connection>>();
  /** Highest id delivered by this instance. */
  let cursor = 0;
  let closed = false;
  let unsubscribe: (() => Promise<void>) | undefined;
  let unsubscribeEnds: (() => Promise<void>) | undefined;
  let checkingSessions = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let queue: Promise<void> = Promise.resolve();

  /**
   * Writes one SSE chunk. Fan-out writes the same bytes to thousands of
   * sockets, so a frame is encoded once (with its HTTP chunk framing when the
   * response is chunked) and written straight to each socket: the bytes are
   * exactly what ServerResponse would send, without per-socket encoding.
   */
  const write = (connection: Connection, frame: Frame) => {
    const { res } = connection;
    const own = connection.socket;
    if (own) {
      if (own.destroyed || own.writableEnded) return;
      own.write(frame.chunked);
      if (own.writableLength > MAX_BUFFERED_BYTES) {
        deps.log.warn({ userId: connection.userId }, 'notification stream too slow; dropping it');
        own.destroy();
      }
      return;
    }
    if (res.destroyed || res.writableEnded) return;
    const socket = res.socket;
    if (connection.chunked && socket) socket.write(frame.chunked);
    else res.write(frame.raw);
    if ((socket?.writableLength ?? res.writableLength) > MAX_BUFFERED_BYTES) {
      deps.log.warn({ userId: connection.userId }, 'notification stream too slow; dropping it');
      res.destroy();
    }
  };
  const heartbeatFrame = toFrame(': heartbeat\n\n');

  /** Ends a stream: the client sees its response end (the last chunk), then the connection closes. */
  const finish = (connection: Connection) => {
    const own = connection.socket;
    if (!own) {
      connection.res.end();
      return;
    }
    if (!own.destroyed && !own.writableEnded) own.end(LAST_CHUNK);
  };

  /** Whether the notification goes to this connection (now, or after the replay it is writing). */
  const sendTo = (connection: Connection, row: NotificationRow, frame: Frame): boolean => {
    if (connection.pending) {
      connection.pending.push(row);
      return true;
    }
    if (row.seq <= connection.sentUpTo) return false;
    connection.sentUpTo = row.seq;
    write(connection, frame);
    return true;
  };

  /** The open streams of a notification's audience: everyone's, one user's, or a workspace's current members'. */
  const audienceConnections = async (row: NotificationRow): Promise<Iterable<Connection>> => {
    const audience = audienceOf(row);
    if (audience.type === 'all') return connections;
    if (audience.type === 'user') return byUser.get(audience.id) ?? [];
    if (connections.size === 0) return [];
    const members = await deps.repo.workspaceMemberIds(audience.id);
    return members.flatMap((userId) => [...(byUser.get(userId) ?? [])]);
  };

  const deliver = async (row: NotificationRow) => {
    cursor = Math.max(cursor, row.seq);
    const targets = await audienceConnections(row);
    const frame = toFrame(formatEvent(row));
    let streams = 0;
    for (const connection of targets) if (sendTo(connection, row, frame)) streams += 1;
    deps.onDelivered?.(row, streams);
  };

  const handle = async (row: NotificationRow) => {
    if (row.seq <= cursor) return;
    if (row.seq === cursor + 1) return deliver(row);
    // A gap: fetch everything between (in order) from the database.
    while (cursor < row.seq) {
      const rows = await deps.repo.listRange(cursor, row.seq, REPLAY_PAGE);
      if (rows.length === 0) break;
      for (const missed of rows) await deliver(missed);
    }
    cursor = Math.max(cursor, row.seq);
  };

  const onMessage = (message: string) => {
    let row: NotificationRow;
    try {
      row = JSON.parse(message) as NotificationRow;
    } catch {
      deps.log.warn('ignored a malformed notification bus message');
      return;
    }
    queue = queue
      .then(() => handle(row))
      .catch((error: unknown) => deps.log.error({ err: error }, 'notification delivery failed'));
  };

  const remove = (connection: Connection) => {
    connections.delete(connection);
    const set = byUser.get(connection.userId);
    set?.delete(connection);
    if (set?.size === 0) byUser.delete(connection.userId);
  };

  /** Ends this instance's streams of a session or user: the client sees its stream end. */
  const endLocal = (ended: SessionEnd) => {
    const targets =
      'userId' in ended
        ? [...(byUser.get(ended.userId) ?? [])]
        : [...connections].filter((c) => c.sessionId === ended.sessionId);
    for (const connection of targets) {
      remove(connection);
      finish(connection);
    }
  };

  const onEndMessage = (message: string) => {
    const ended = parseSessionEnd(message);
    if (ended) endLocal(ended);
    else deps.log.warn('ignored a malformed stream-end bus message');
  };

  /** Ends the streams whose session expired (idle or absolute) since they were opened. */
  const endExpired = async () => {
    if (checkingSessions || connections.size === 0) return;
    checkingSessions = true;
    try {
      const sessionIds = [...new Set([...connections].map((c) => c.sessionId))];
      const live = await deps.liveSessions(sessionIds);
      for (const sessionId of sessionIds) if (!live.has(sessionId)) endLocal({ sessionId });
    } catch (error) {
      deps.log.warn({ err: error }, 'could not check the sessions of notification streams');
    } finally {
      checkingSessions = false;
    }
  };

  return {
    async start() {
      cursor = await deps.repo.latestSeq();
      unsubscribe = await deps.bus.subscribe(NOTIFICATIONS_CHANNEL, onMessage);
      unsubscribeEnds = await deps.bus.subscribe(STREAMS_END_CHANNEL, onEndMessage);
      heartbeat = setInterval(() => {
        for (const connection of connections) write(connection, heartbeatFrame);
        void endExpired();
      }, deps.heartbeatMs);
      heartbeat.unref();
    },

    /** Tells every instance (this one included) about a stored notification. */
    async announce(row: NotificationRow) {
      await deps.bus.publish(NOTIFICATIONS_CHANNEL, JSON.stringify(row));
    },

    /**
     * Ends every stream of a session (signed out) or of a user (e.g. disabled), on
     * this instance at once and on every other one through the bus.
     */
    async endStreamsOf(ended: SessionEnd) {
      endLocal(ended);
      await deps.bus.publish(STREAMS_END_CHANNEL, JSON.stringify(ended));
    },

    /**
     * Serves one SSE stream until the client goes away, its session ends or the server closes.
     * With `lastEventId`, first writes every notification after it (for this
     * user, in order), then continues live with no duplicates.
     */
    async attach(
      { userId, sessionId }: { userId: string; sessionId: string },
      req: IncomingMessage,
      res: ServerResponse,
      headers: ResponseHeaders,
      lastEventId: number | undefined,
    ) {
      if (closed) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('shutting down');
        return;
      }
      const snapshot = cursor;
      const socket = req.httpVersion === '1.1' ? req.socket : null;
      const connection: Connection = {
        userId,
        sessionId,
        res,
        sentUpTo: snapshot,
        pending: lastEventId === undefined ? null : [],
        chunked: socket !== null,
        socket,
      };
      connections.add(connection);
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(connection);
      if (socket) {
        // The whole head and the first frame in one write: no ServerResponse header bookkeeping per stream.
        // The socket closes once (client gone, stream ended or dropped): then the stream is removed.
        socket.once('close', () => remove(connection));
        socket.setNoDelay(true);
        socket.write(responseHead(headers) + FIRST_CHUNK, 'latin1');
      } else {
        const cleanup = () => {
          remove(connection);
          // The client went away: release the socket now, not at its keep-alive timeout.
          if (!res.writableEnded) res.destroy();
        };
        req.on('close', cleanup);
        res.on('close', cleanup);
        res.on('error', cleanup);
        req.socket.setNoDelay(true);
        res.writeHead(200, { ...headers, ...SSE_HEADERS });
        res.write(FIRST_FRAME);
        connection.chunked = (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
      }

      if (lastEventId === undefined) return;
      try {
        if (lastEventId < snapshot) {
          let after = lastEventId;
          for (;;) {
            const rows = await deps.repo.listForUserRange(userId, after, snapshot, REPLAY_PAGE);
            for (const row of rows) write(connection, toFrame(formatEvent(row)));
            const last = rows[rows.length - 1];
            if (!last || rows.length < REPLAY_PAGE) break;
            after = last.seq;
          }
          connection.sentUpTo = snapshot;
        } else if (lastEventId <= (await deps.repo.latestSeq())) {
          // The client saw an id this instance has not delivered yet (it came
          // from another instance): it arrives here soon; do not send it twice.
          connection.sentUpTo = lastEventId;
        }
        // else: an id from another database (e.g. after a reset): start live.
        const held = connection.pending ?? [];
        connection.pending = null;
        for (const row of held) sendTo(connection, row, toFrame(formatEvent(row)));
      } catch (error) {
        deps.log.error({ err: error }, 'notification replay failed');
        (socket ?? res).destroy();
      }
    },

    /** Open streams on this instance. */
    get size() {
      return connections.size;
    },

    /** Ends every stream (graceful shutdown) and leaves the bus. */
    async close() {
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      for (const connection of connections) finish(connection);
      connections.clear();
      byUser.clear();
      await unsubscribe?.().catch(() => undefined);
      await unsubscribeEnds?.().catch(() => undefined);
      await queue;
    },
  };
}

export type NotificationHub = ReturnType<typeof createNotificationHub>;
