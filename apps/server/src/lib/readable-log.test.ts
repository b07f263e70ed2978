import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { readableLine, readableLogStream } from './readable-log';

describe('readable log lines', () => {
  it('turns a request line into time, level, message, method, path, status and duration', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 10, 28, 12, 4, 5),
      pid: 1,
      hostname: 'h',
      reqId: 'r-1',
      req: { method: 'GET', url: '/api/files' },
      res: { statusCode: 200 },
      responseTime: 3.2,
      msg: 'request completed',
    });
    expect(readableLine(line)).toBe('12:04:05  INFO   request completed  GET /api/files  → 200 (3 ms)  reqId=r-1');
  });

  it('shows other fields as key=value and an error with its stack under the line, coloured on a terminal', () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      msg: 'upload failed',
      statusCode: 500,
      err: { message: 'EEXIST', stack: 'Error: EEXIST\n    at mkdir' },
    });
    expect(readableLine(line)).toBe(
      '00:00:00  ERROR  upload failed  statusCode=500\n    Error: EEXIST\n        at mkdir',
    );
    expect(readableLine(line, true)).toContain('\u001b[31mERROR\u001b[0m');
    expect(readableLine('not json')).toBe('not json');
  });

  it("serves as the stream of the server's logger", async () => {
    const out = new PassThrough();
    const written: string[] = [];
    out.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const app = Fastify({ logger: { base: undefined, timestamp: () => ',"time":0', stream: readableLogStream(out) } });
    app.log.warn({ user: 'alice' }, 'careful');
    await app.close();
    expect(written.join('')).toBe('00:00:00  WARN   careful  user=alice\n');
  });
});
