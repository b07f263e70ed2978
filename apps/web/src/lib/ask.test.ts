import { afterEach, describe, expect, it, vi } from 'vitest';
import { askFiles, createSseParser } from './ask';

afterEach(() => vi.unstubAllGlobals());

const CITATION = { n: 1, fileId: 'f1', fileName: 'contract.txt', text: 'Either party may end it.', highlights: [] };

/** A server answering with these pieces of text as an event stream, one chunk each. */
function streamServer(pieces: string[], status = 200, contentType = 'text/event-stream; charset=utf-8') {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ url, init });
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(encoder.encode(piece));
          controller.close();
        },
      });
      return new Response(body, { status, headers: { 'content-type': contentType } });
    }),
  );
  return requests;
}

describe('createSseParser', () => {
  it('reads events split anywhere, with CRLF, comments and multi-line data', () => {
    const parser = createSseParser();
    expect(parser.push(': hello\r\nevent: del')).toEqual([]);
    expect(parser.push('ta\r\ndata: {"text":')).toEqual([]);
    expect(parser.push('"A."}\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'delta', data: '{"text":"A."}' }]);
    expect(parser.push('data: one\ndata:two\n\nevent: done\ndata: {}\n\n')).toEqual([
      { event: 'message', data: 'one\ntwo' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('keeps an unfinished event until its blank line comes', () => {
    const parser = createSseParser();
    expect(parser.push('event: done\ndata: {"a":1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'done', data: '{"a":1}' }]);
  });
});

describe('askFiles', () => {
  it('asks for an event stream, hands over each delta and resolves with the done answer', async () => {
    const done = { mode: 'generated', answer: 'It ends with notice [1].', citations: [CITATION] };
    const requests = streamServer([
      'event: delta\ndata: {"text":"It ends',
      ' with notice [1]."}\n\n',
      `event: done\ndata: ${JSON.stringify(done)}\n\n`,
    ]);
    const deltas: string[] = [];
    const answer = await askFiles({ question: 'how does it end?' }, { onDelta: (text) => deltas.push(text) });
    expect(deltas).toEqual(['It ends with notice [1].']);
    expect(answer).toEqual(done);
    expect(requests[0]?.url).toBe('/api/ask');
    expect(requests[0]?.init?.method).toBe('POST');
    expect(new Headers(requests[0]?.init?.headers).get('accept')).toBe('text/event-stream');
    expect(JSON.parse(String(requests[0]?.init?.body))).toEqual({ question: 'how does it end?' });
  });

  it('rejects with the message of an error event, and when the stream ends without an answer', async () => {
    streamServer([
      'event: delta\ndata: {"text":"Half."}\n\nevent: error\ndata: {"message":"The answer stopped. Please ask again."}\n\n',
    ]);
    await expect(askFiles({ question: 'q' })).rejects.toMatchObject({
      code: 'ASK_STOPPED',
      message: 'The answer stopped. Please ask again.',
    });
    streamServer(['event: delta\ndata: {"text":"Half."}\n\n']);
    await expect(askFiles({ question: 'q' })).rejects.toMatchObject({ code: 'ASK_STOPPED' });
  });

  it('rejects with the server’s JSON error shape', async () => {
    streamServer(
      [JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many questions in a minute.' } })],
      429,
      'application/json',
    );
    await expect(askFiles({ question: 'q' })).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many questions in a minute.',
    });
  });

  it('takes a plain JSON answer too', async () => {
    const body = { mode: 'extractive', answer: 'I could not find that in your files.', citations: [] };
    streamServer([JSON.stringify(body)], 200, 'application/json');
    await expect(askFiles({ question: 'q' })).resolves.toEqual(body);
  });
});
