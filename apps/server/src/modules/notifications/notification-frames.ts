import type { Notification } from '@atrium/contracts';
import type { SessionEnd } from '../auth';
import type { NotificationDetails, NotificationRow } from './notifications.repository';

// What a notification stream writes and reads on the wire: the SSE frames (encoded once, with their HTTP/1.1 chunk
// framing), the response head the hub writes itself, a notification as the client sees it, and the bus and header
// values it parses.

/** An SSE frame encoded once: raw bytes, and the same bytes as one HTTP/1.1 chunk. */
export interface Frame {
  raw: Buffer;
  chunked: Buffer;
}

const CRLF = Buffer.from('\r\n');
/** Headers already set for the answer (lower-case names), e.g. `reply.getHeaders()`. */
export type ResponseHeaders = Record<string, string | string[] | number | undefined>;
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;
export const FIRST_FRAME = 'retry: 3000\n: connected\n\n';
export const FIRST_CHUNK = `${FIRST_FRAME.length.toString(16)}\r\n${FIRST_FRAME}\r\n`;
export const LAST_CHUNK = '0\r\n\r\n';
/** What Node refuses in a header value (`validateHeaderValue`): such a header is left out. */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const SSE_HEAD_TAIL = Object.entries(SSE_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('')
  .concat('transfer-encoding: chunked\r\n\r\n');

/**
 * An HTTP/1.1 200 head with the headers set so far on the request (security headers, request id; the stream's own
 * replace any of the same name) and chunked framing, as ServerResponse would write it.
 */
export function responseHead(headers: ResponseHeaders): string {
  let head = 'HTTP/1.1 200 OK\r\n';
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name in SSE_HEADERS || name === 'transfer-encoding' || name === 'content-length') {
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      const text = String(one);
      if (!INVALID_HEADER_VALUE.test(text)) head += `${name}: ${text}\r\n`;
    }
  }
  return head + SSE_HEAD_TAIL;
}
export const toFrame = (text: string): Frame => {
  const raw = Buffer.from(text, 'utf8');
  return { raw, chunked: Buffer.concat([Buffer.from(`${raw.length.toString(16)}\r\n`), raw, CRLF]) };
};

/** The stored details (workspace, sender, membership) of a row; none when absent or unreadable. */
function detailsOf(row: NotificationRow): NotificationDetails {
  if (!row.details) return {};
  try {
    const parsed = JSON.parse(row.details) as NotificationDetails | null;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

export const presentNotification = (row: NotificationRow): Notification => {
  const { workspace, sender, membership, subject } = detailsOf(row);
  return {
    id: String(row.seq),
    message: row.message,
    timestamp: row.created_at,
    type: row.type,
    ...(workspace ? { workspace: { id: workspace.id, name: workspace.name } } : {}),
    ...(sender ? { sender: { name: sender.name } } : {}),
    ...(membership ? { membership: { role: membership.role, state: membership.state } } : {}),
    ...(subject ? { subject: { kind: subject.kind, id: subject.id, workspaceId: subject.workspaceId } } : {}),
  };
};

/** One SSE event: `id:` is the notification id, `data:` the JSON notification (one line). */
export const formatEvent = (row: NotificationRow): string =>
  `id: ${row.seq}\ndata: ${JSON.stringify(presentNotification(row))}\n\n`;

/** A `SessionEnd` announced on `STREAMS_END_CHANNEL`, or undefined when the message is not one. */
export function parseSessionEnd(message: string): SessionEnd | undefined {
  try {
    const ended = JSON.parse(message) as Partial<Record<'sessionId' | 'userId', unknown>>;
    if (typeof ended.sessionId === 'string') return { sessionId: ended.sessionId };
    if (typeof ended.userId === 'string') return { userId: ended.userId };
  } catch {
    // not JSON
  }
  return undefined;
}

/** Parses Last-Event-ID: a non-negative integer, anything else means "no replay". */
export function parseLastEventId(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
