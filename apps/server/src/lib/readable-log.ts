import type { Writable } from 'node:stream';

// Log lines a person reads at a terminal (docs/DEPLOY.md, "Monitoring"): pino writes JSON, this turns each line into
// `12:04:05 INFO  request completed  GET /api/files → 200 (3 ms)  key=value…`. JSON stays the format everywhere
// else (journal, files, collectors): `LOG_FORMAT=auto` picks this only when stdout is a terminal.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[35m' };
const RESET = '\u001b[0m';
/** Fields shown in their own place, or not at all. */
const OWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'req', 'res', 'responseTime', 'err', 'reqId']);

const clock = (time: unknown) =>
  typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : String(time ?? '');

const scalar = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** One pino JSON line as a readable line (and the stack of an error under it); anything else unchanged. */
export function readableLine(line: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = Number(entry.level);
  const name = (LEVELS[level] ?? String(entry.level)).padEnd(5);
  const parts = [clock(entry.time), colour && COLOURS[level] ? `${COLOURS[level]}${name}${RESET}` : name];
  if (entry.msg !== undefined) parts.push(String(entry.msg));
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode !== undefined)
    parts.push(
      `→ ${res.statusCode}${typeof entry.responseTime === 'number' ? ` (${Math.round(entry.responseTime)} ms)` : ''}`,
    );
  const fields = Object.entries(entry)
    .filter(([key]) => !OWN.has(key))
    .map(([key, value]) => `${key}=${scalar(value)}`);
  if (entry.reqId !== undefined) fields.push(`reqId=${scalar(entry.reqId)}`);
  let text = [...parts, ...fields].join('  ');
  const err = entry.err as { stack?: string; message?: string } | undefined;
  if (err) text += `\n    ${(err.stack ?? err.message ?? JSON.stringify(err)).split('\n').join('\n    ')}`;
  return text;
}

/** A stream for pino that writes readable lines to `out` (stdout). */
export function readableLogStream(out: Writable & { isTTY?: boolean }): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(`${readableLine(line, out.isTTY === true)}\n`);
    },
  };
}
