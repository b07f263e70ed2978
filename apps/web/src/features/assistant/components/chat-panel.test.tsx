import type { FileInsights, SearchResult } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { me, stubFetch } from '../../../test/render';
import { searchResult } from '../../../test/search-results';
import { ChatPanel } from './chat-panel';

afterEach(() => vi.unstubAllGlobals());

const ZEBRA = searchResult({ id: 'z1', name: 'zebrafish notes.txt', matchedIn: 'content', snippet: '…the zebrafish…' });
const PLAN = searchResult({ id: 'p1', name: 'plan.txt' });
const PLAN_MD = searchResult({ id: 'p2', name: 'plan.md' });
const SHARED_ALONE = searchResult({
  id: 's1',
  name: 'budget.xlsx',
  location: { spaceKind: 'shared', spaceId: null, spaceName: 'Shared with me', folderId: null, path: [] },
});

/** The server: search answers from `files` by name or content word; insights per file id. */
function server(files: SearchResult[], insights: Record<string, FileInsights> = {}) {
  return stubFetch((url) => {
    const parsed = new URL(url, 'http://x');
    if (parsed.pathname === '/api/search') {
      const q = (parsed.searchParams.get('q') ?? '').toLowerCase();
      const items = files.flatMap((file) =>
        file.name.toLowerCase().includes(q)
          ? [{ ...file, matchedIn: 'name' as const, snippet: file.name }]
          : file.matchedIn === 'content' && file.snippet.includes(q)
            ? [file]
            : [],
      );
      return { status: 200, body: { items, nextCursor: null } };
    }
    const id = /^\/api\/files\/([^/]+)\/insights$/.exec(parsed.pathname)?.[1];
    if (id && insights[id]) return { status: 200, body: insights[id] };
    return undefined;
  });
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderChat({ signedIn }: { signedIn: boolean | undefined }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (signedIn !== undefined) client.setQueryData(queryKeys.me(), signedIn ? me() : null);
  const onNavigate = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/dashboard/chatbot']}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <ChatPanel variant="page" onNavigate={onNavigate} />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { onNavigate };
}

async function ask(text: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Message'), `${text}{Enter}`);
  return user;
}

/** The bot's latest answer, once the typing indicator is gone. */
async function lastAnswer(containing: string | RegExp) {
  const log = screen.getByRole('list', { name: 'Conversation' });
  const found = await within(log).findByText(containing, {}, { timeout: 4000 });
  const item = found.closest('li');
  if (!item) throw new Error('no message');
  return item;
}

describe('chat file commands', { timeout: 30_000 }, () => {
  it('"search files for …" answers with the files found, each opening its folder, and the search page', async () => {
    const calls = server([ZEBRA, PLAN]);
    renderChat({ signedIn: true });
    const user = await ask('Search files for "zebrafish"');
    const answer = await lastAnswer('I found 1 file for “zebrafish”.');
    const links = within(answer).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/dashboard/spaces/personal/folders/f-reports?select=z1',
      '/dashboard/search?q=zebrafish',
    ]);
    expect(links[0]?.textContent).toContain('zebrafish notes.txt');
    expect(links[0]?.textContent).toContain('Personal › Reports');
    expect(calls.find((call) => call.url.startsWith('/api/search'))?.url).toContain('q=zebrafish');
    await user.click(links[0] as HTMLElement);
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/spaces/personal/folders/f-reports?select=z1');
  });

  it('says when no file matches', async () => {
    server([PLAN]);
    renderChat({ signedIn: true });
    await ask('find files about narwhals');
    const answer = await lastAnswer('No files match “narwhals”.');
    expect(
      within(answer)
        .getByRole('link', { name: /See all results/ })
        .getAttribute('href'),
    ).toBe('/dashboard/search?q=narwhals');
  });

  it('"open <name>" opens the one file it means, or lists the candidates, or says there is none', async () => {
    server([PLAN, PLAN_MD, SHARED_ALONE]);
    const { onNavigate } = renderChat({ signedIn: true });
    await ask('open plan.txt');
    await lastAnswer('Opening “plan.txt”.');
    expect(onNavigate).toHaveBeenCalledWith('/dashboard/spaces/personal/folders/f-reports?select=p1');

    await ask('open plan');
    const choices = await lastAnswer('I found 2 files that could be “plan”. Which one do you mean?');
    expect(
      within(choices)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['plan.txtPersonal › Reports', 'plan.mdPersonal › Reports']);

    await ask('open the door');
    await lastAnswer('I could not find a file named “door”.');

    await ask('open budget.xlsx');
    const alone = await lastAnswer(/shared with you on its own/);
    expect(
      within(alone)
        .getByRole('link', { name: /budget\.xlsx/ })
        .getAttribute('href'),
    ).toBe('/api/files/download/s1');
    expect(onNavigate).toHaveBeenCalledTimes(1);
  });

  it('"what is in <name>" answers from the insights, with a link to open the file', async () => {
    server([PLAN, ZEBRA], {
      p1: { status: 'done', text: 'Plant the zebrafish garden in spring.', engine: 'local', analysedAt: null },
      z1: { status: 'running', progress: 0.5, engine: null, analysedAt: null },
    });
    renderChat({ signedIn: true });
    await ask("what's in plan.txt?");
    const answer = await lastAnswer('“plan.txt” reads: “Plant the zebrafish garden in spring.”');
    expect(
      within(answer)
        .getByRole('link', { name: /Open plan\.txt/ })
        .getAttribute('href'),
    ).toBe('/dashboard/spaces/personal/folders/f-reports?select=p1');
    await ask('what is in zebrafish notes.txt');
    await lastAnswer('“zebrafish notes.txt” is still being analysed (50% done). Ask me again in a moment.');
  });

  it('a visitor is asked to sign in: known signed out, nothing is asked of the server', async () => {
    const calls = server([ZEBRA]);
    renderChat({ signedIn: false });
    await ask('search files for zebrafish');
    const answer = await lastAnswer(/Please sign in first/);
    expect(within(answer).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(calls).toEqual([]);
    // "open <anything>" is not a file command for a visitor.
    await ask('open the door');
    await lastAnswer(/Sorry, I did not understand that command/);
  });

  it('a visitor on a public page (not known yet, no auth flag) is asked to sign in without a request', async () => {
    const calls = server([ZEBRA]);
    localStorage.removeItem('auth');
    renderChat({ signedIn: undefined });
    await ask('search files for zebrafish');
    const answer = await lastAnswer(/Please sign in first/);
    expect(within(answer).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(calls).toEqual([]);
  });

  it('a public page in a browser that was signed in: the server says 401, and the chat asks to sign in', async () => {
    stubFetch(() => ({ status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Sign in first.' } } }));
    localStorage.setItem('auth', 'true');
    renderChat({ signedIn: undefined });
    await ask('what is in plan.txt');
    const answer = await lastAnswer(/Please sign in first/);
    expect(answer.textContent).not.toContain('plan.txt”');
    localStorage.removeItem('auth');
  });

  it('keeps the other replies', async () => {
    server([]);
    const { onNavigate } = renderChat({ signedIn: true });
    await ask('open file upload');
    await lastAnswer('Opening File Upload.');
    expect(onNavigate).toHaveBeenCalledWith('/dashboard/file-upload');
  });

  it('a question no rule answers is asked of the files; nothing found keeps the rule-based reply', async () => {
    const calls = stubFetch((url, init) => {
      if (url !== '/api/ask') return undefined;
      const { question } = JSON.parse(String(init?.body)) as { question: string };
      const found = question.includes('budget');
      return {
        status: 200,
        body: {
          mode: 'extractive',
          answer: found ? 'The budget review is on Friday. [1]' : 'I could not find that in your files.',
          citations: found
            ? [
                {
                  n: 1,
                  fileId: 'r1',
                  fileName: 'standup.mp3',
                  startSeconds: 65,
                  text: 'The budget review is on Friday.',
                  highlights: [],
                },
              ]
            : [],
        },
      };
    });
    renderChat({ signedIn: true });
    await ask('when is the budget review');
    const answer = await lastAnswer(/The budget review is on Friday\./);
    const source = within(answer).getByRole('link', { name: /standup\.mp3/ });
    expect(source.getAttribute('href')).toBe('/dashboard/chatbot?file=r1&t=65');
    expect(calls.map((call) => call.body)).toEqual([{ question: 'when is the budget review' }]);
    await ask('what is the weather');
    await lastAnswer(/Sorry, I did not understand that command/);
    // Rules still answer first: a greeting never reaches the files.
    await ask('who owns this');
    await lastAnswer(/Atrium team/);
    expect(calls).toHaveLength(2);
  });

  it("streams the files' answer as it arrives, and Cancel stops it", async () => {
    const encoder = new TextEncoder();
    const streams: { push: (text: string) => void; end: () => void; cancelled: () => boolean }[] = [];
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        if (init?.signal) signals.push(init.signal);
        let controller!: ReadableStreamDefaultController<Uint8Array>;
        let cancelled = false;
        const body = new ReadableStream<Uint8Array>({
          start: (c) => {
            controller = c;
          },
          cancel: () => {
            cancelled = true;
          },
        });
        init?.signal?.addEventListener('abort', () => {
          cancelled = true;
          controller.error(new DOMException('aborted', 'AbortError'));
        });
        streams.push({
          push: (text) => controller.enqueue(encoder.encode(text)),
          end: () => controller.close(),
          cancelled: () => cancelled,
        });
        return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
      }),
    );
    renderChat({ signedIn: true });
    const log = screen.getByRole('list', { name: 'Conversation' });
    const user = await ask('when is the budget review');
    await vi.waitFor(() => expect(streams).toHaveLength(1), { timeout: 4000 });
    expect(await within(log).findByText('Looking in your files…')).toBeTruthy();
    streams[0]?.push('event: delta\ndata: {"text":"The budget review"}\n\n');
    expect(await within(log).findByText('The budget review')).toBeTruthy();
    expect(within(log).getByText('Answering from your files…')).toBeTruthy();
    streams[0]?.push('event: delta\ndata: {"text":"is on Friday. [1]"}\n\n');
    expect(await within(log).findByText('The budget review is on Friday. [1]')).toBeTruthy();
    const done = {
      mode: 'extractive',
      answer: 'The budget review is on Friday. [1]',
      citations: [{ n: 1, fileId: 'r1', fileName: 'standup.mp3', text: 'The budget review.', highlights: [] }],
    };
    streams[0]?.push(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    await vi.waitFor(() => expect(within(log).queryByTestId('chat-asking')).toBeNull(), { timeout: 4000 });
    const answer = await lastAnswer(/The budget review is on Friday\./);
    expect(within(answer).getByRole('link', { name: /standup\.mp3/ })).toBeTruthy();
    expect(within(log).queryByRole('button', { name: 'Cancel' })).toBeNull();

    await user.type(screen.getByLabelText('Message'), 'who wrote the minutes{Enter}');
    await vi.waitFor(() => expect(streams).toHaveLength(2), { timeout: 4000 });
    streams[1]?.push('event: delta\ndata: {"text":"The minutes were"}\n\n');
    expect(await within(log).findByText('The minutes were')).toBeTruthy();
    await user.click(within(log).getByRole('button', { name: 'Cancel' }));
    expect(signals[1]?.aborted).toBe(true);
    expect(streams[1]?.cancelled()).toBe(true);
    await lastAnswer('Stopped. Ask again whenever you like.');
    expect(within(log).queryByText('The minutes were')).toBeNull();
    expect(within(log).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});
