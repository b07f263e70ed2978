import { ASK_NOT_FOUND, ASK_PER_MINUTE, AskResponse, type Folder, type Workspace } from '@atrium/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readJson, signInPeople, startTestServer, type TestServer } from '../../../test/helpers';
import { uploadWithPassages } from '../../../test/ask-passages';
import type { AnswerGenerator, PassageEmbedder } from './ports';

const CONTRACT =
  'Supplier agreement between Northwind and Atrium.\n\n' +
  'Either party may terminate this agreement with ninety days of written notice. ' +
  'Termination for cause takes effect at once. ' +
  'The supplier delivers the parts every Monday.\n\n' +
  'Payment is due within thirty days of each delivery.';
const HANDBOOK = 'Staff handbook.\n\nThe remuneration of an engineer is reviewed every spring by the board.';
const INVOICES = [
  ['invoice-a.md', 'Invoice INV-2025-0042 for office chairs and a desk, paid by card.'],
  ['invoice-b.md', 'Invoice INV-2025-0043 for invoices of chairs, invoice chairs, office invoice for chairs.'],
] as const;

/** A model that says what it is told to, citing what the test wants, deterministically. */
let generator: AnswerGenerator | null = null;
/** Vectors by invented words: `zorbex` and `flimnar` mean the same here, nothing else means anything. */
let embedder: PassageEmbedder | null = null;
const conceptEmbedder: PassageEmbedder = {
  label: 'test-concepts',
  dimensions: 2,
  embed: async (texts) => texts.map((text) => Float32Array.from([/zorbex|flimnar/i.test(text) ? 1 : 0, 0.01])),
};

/**
 * "Ask your files" (docs/PRODUCT.md#ask-your-files) through the real server: analysis reads uploaded files, their
 * passages are cut on `file.analysed`, and `POST /api/ask` answers from the passages the asker may read at that
 * moment — after unshare, a move out of a shared folder, trash and removal from a workspace, never again.
 */
describe.each(dialects())('ask your files (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { ANALYSIS_ENABLED: 'true' },
      overrides: { askModels: { generator: () => generator, embedder: () => embedder } },
    });
    Object.assign(cookies, await signInPeople(server, ['ana', 'ben', 'cleo']));
  });
  afterAll(async () => server?.close());
  const { call, json } = callsAs(() => server, cookies);

  const upload = (who: string, query: string, name: string, content: string) =>
    uploadWithPassages(server, cookies[who], query, name, content);
  const ask = async (who: string, question: string, extra: Record<string, unknown> = {}) =>
    AskResponse.parse(await json(await call(who, 'POST', '/api/ask', { question, ...extra })));
  const cited = async (who: string, question: string) => (await ask(who, question)).citations.map((c) => c.fileName);
  /** Deletes each owner's file and empties it from their trash (analysis may still be cutting its passages again). */
  const deleteForGood = async (...owned: [string, { id: string }][]) => {
    for (const [who, file] of owned) {
      await json(await call(who, 'DELETE', `/api/files/user/${file.id}`));
      await json(await call(who, 'DELETE', `/api/trash/${file.id}`));
    }
  };
  const folder = (who: string, body: { name: string; workspaceId?: string }) =>
    call(who, 'POST', '/api/folders', body).then((r) => json<Folder>(r, 201));

  it('answers extractively with cited, highlighted sentences; synonyms help; unknown questions are not found', async () => {
    await upload('ana', '', 'supplier-contract.md', CONTRACT);
    await upload('ana', '', 'handbook.md', HANDBOOK);
    const answer = await ask('ana', 'How can the supplier agreement be terminated?');
    expect(answer.mode).toBe('extractive');
    expect(answer.citations[0]).toMatchObject({ n: 1, fileName: 'supplier-contract.md' });
    expect(answer.answer).toContain(
      'Either party may terminate this agreement with ninety days of written notice. [1]',
    );
    const [first] = answer.citations;
    const highlighted = first?.highlights.map(({ start, end }) => first.text.slice(start, end)) ?? [];
    expect(highlighted).toContain('Either party may terminate this agreement with ninety days of written notice.');
    expect(highlighted).not.toContain('Payment is due within thirty days of each delivery.');
    // "salary" is not in any file; WordNet gives "remuneration", which is.
    expect(await cited('ana', 'What is the salary of an engineer?')).toEqual(['handbook.md']);
    expect(await ask('ana', 'quantum chromodynamics on a lattice')).toEqual({
      mode: 'extractive',
      answer: ASK_NOT_FOUND,
      citations: [],
    });
    // Someone else's files are never cited.
    expect(await ask('ben', 'How can the supplier agreement be terminated?')).toMatchObject({ citations: [] });
  });

  it('puts a passage with the exact identifier first, whatever else matches more words', async () => {
    for (const [name, text] of INVOICES) await upload('ana', '', name, text);
    expect((await cited('ana', 'office chairs invoice INV-2025-0042'))[0]).toBe('invoice-a.md');
    expect((await cited('ana', 'office chairs invoice INV-2025-0043'))[0]).toBe('invoice-b.md');
  });

  it('ranks a passage with a rare word of the question above ones repeating a common word', async () => {
    for (let i = 0; i < 3; i += 1)
      await upload('ana', '', `weekly-${i}.md`, 'Weekly report: the report of the team, report after report, report.');
    await upload('ana', '', 'lagoon.md', 'A note on the zanzibar lagoon, for the report.');
    expect((await cited('ana', 'zanzibar report'))[0]).toBe('lagoon.md');
  });

  it('finds the forms of a word, not every word it starts', async () => {
    await upload('ana', '', 'journald.md', 'The systemd journal keeps the kernel messages.');
    await upload('ana', '', 'logbook.md', 'Each of our systems keeps a logbook of kernel messages.');
    expect(await cited('ana', 'system')).toEqual(['logbook.md']);
    // Holding every word of the question comes first, then fewer.
    expect(await cited('ana', 'systems kernel messages')).toEqual(['logbook.md', 'journald.md']);
  });

  it('keeps the number of passages holding each word as passages are written and deleted (PostgreSQL)', async () => {
    if (dialect !== 'postgres') return;
    const db = server.app.database.db;
    const held = async (term: string) => {
      const { rows } = await sql<{ passages: string }>`select passages from passage_terms
        where term = ${term}`.execute(db);
      return Number(rows[0]?.passages ?? 0);
    };
    const counted = async () => {
      const { rows } = await sql<{ n: string }>`select count(*) as n from passages`.execute(db);
      return Number(rows[0]?.n);
    };
    expect(await held('')).toBe(await counted());
    const first = await upload('ana', '', 'quokka-1.md', 'The quokka smiles at the ferry.');
    await upload('ana', '', 'quokka-2.md', 'A quokka, two quokka, on Rottnest island.');
    expect(await held('quokka')).toBe(2);
    expect(await held('ferry')).toBe(1);
    expect(await held('')).toBe(await counted());
    await json(await call('ana', 'DELETE', `/api/files/user/${first.id}`));
    await json(await call('ana', 'DELETE', `/api/trash/${first.id}`));
    expect(await held('quokka')).toBe(1);
    expect(await held('ferry')).toBe(0);
    expect(await held('')).toBe(await counted());
    expect(await cited('ana', 'quokka ferry')).toEqual(['quokka-2.md']);
  });

  it('cites only what the asker may read now: after unshare, a move out, trash and leaving a workspace', async () => {
    const lent = await folder('cleo', { name: 'Lent' });
    const note = await upload('cleo', `?folderId=${lent.id}`, 'pelican.md', 'The pelican survey counted forty birds.');
    const question = 'How many birds did the pelican survey count?';
    expect(await cited('ben', question)).toEqual([]);
    await json(await call('cleo', 'PUT', `/api/folders/${lent.id}/shares/ben`, { role: 'viewer' }), 201);
    expect(await cited('ben', question)).toEqual(['pelican.md']);
    await json(await call('cleo', 'DELETE', `/api/folders/${lent.id}/shares/ben`));
    expect(await cited('ben', question)).toEqual([]);

    await json(await call('cleo', 'PUT', `/api/folders/${lent.id}/shares/ben`, { role: 'viewer' }), 201);
    expect(await cited('ben', question)).toEqual(['pelican.md']);
    const [personal] = await json<{ rootFolderId: string }[]>(await call('cleo', 'GET', '/api/spaces'));
    await json(await call('cleo', 'PATCH', `/api/files/${note.id}`, { folderId: personal?.rootFolderId }));
    expect(await cited('ben', question)).toEqual([]);
    expect(await cited('cleo', question)).toEqual(['pelican.md']);

    const ws = await json<Workspace>(await call('cleo', 'POST', '/api/workspaces', { name: 'Birds' }), 201);
    await json(await call('cleo', 'PUT', `/api/workspaces/${ws.id}/members/ben`, { role: 'viewer' }));
    await json(await call('cleo', 'PATCH', `/api/files/${note.id}`, { folderId: ws.rootFolderId }));
    expect(await cited('ben', question)).toEqual(['pelican.md']);
    const inWorkspace = await ask('ben', question, { workspaceId: ws.id });
    expect(inWorkspace.citations.map((c) => c.fileName)).toEqual(['pelican.md']);
    // Only that workspace's files: Ben's own pelican note is not cited there, but is without the filter.
    await upload('ben', '', 'own-pelican.md', 'The pelican survey counted forty birds again.');
    expect((await ask('ben', question, { workspaceId: ws.id })).citations.map((c) => c.fileName)).toEqual([
      'pelican.md',
    ]);
    expect((await cited('ben', question)).sort()).toEqual(['own-pelican.md', 'pelican.md']);
    // Written into the workspace, moved out and back: the workspace's passages follow their files.
    await upload('cleo', `?folderId=${ws.rootFolderId}`, 'heron.md', 'The heron nest sits on the old mill roof.');
    const withinBirds = async (asked: string) =>
      (await ask('cleo', asked, { workspaceId: ws.id })).citations.map((c) => c.fileName);
    expect(await withinBirds('Where does the heron nest?')).toEqual(['heron.md']);
    await json(await call('cleo', 'PATCH', `/api/files/${note.id}`, { folderId: personal?.rootFolderId }));
    expect(await withinBirds(question)).toEqual([]);
    await json(await call('cleo', 'PATCH', `/api/files/${note.id}`, { folderId: ws.rootFolderId }));
    expect(await withinBirds(question)).toEqual(['pelican.md']);
    await json(await call('cleo', 'DELETE', `/api/workspaces/${ws.id}/members/ben`));
    expect(await cited('ben', question)).toEqual(['own-pelican.md']);
    // A workspace Ben is not (or no longer) a member of, or none: 404, as on every workspace route.
    for (const workspaceId of [ws.id, 'no-such-workspace']) {
      const refused = await call('ben', 'POST', '/api/ask', { question, workspaceId });
      expect(refused.status).toBe(404);
      expect(await readJson(refused)).toMatchObject({ error: { code: 'WORKSPACE_NOT_FOUND' } });
    }

    await json(await call('cleo', 'DELETE', `/api/files/user/${note.id}`));
    expect(await cited('cleo', question)).toEqual([]);
  });

  it('streams server-sent events and keeps only the cited sentences of a generated answer', async () => {
    generator = {
      label: 'test',
      async *stream({ prompt }) {
        expect(prompt).toContain('[1] (supplier-contract.md)');
        yield 'Either party may end it with ninety days of notice [1]. ';
        yield 'The moon is made of cheese. ';
        yield 'Cause ends it at once [1].';
      },
    };
    try {
      const json = await ask('ana', 'How can the supplier agreement be terminated?');
      expect(json.mode).toBe('generated');
      expect(json.answer).toBe('Either party may end it with ninety days of notice [1]. Cause ends it at once [1].');
      expect(json.citations.map((c) => [c.n, c.fileName])).toEqual([[1, 'supplier-contract.md']]);

      const response = await server.fetch('/api/ask', {
        method: 'POST',
        headers: { cookie: cookies.ana ?? '', 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ question: 'How can the supplier agreement be terminated?' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const events = (await response.text())
        .split('\n\n')
        .filter(Boolean)
        .map((block) => {
          const [event, data] = block.split('\n');
          return [event?.slice('event: '.length), JSON.parse(data?.slice('data: '.length) ?? 'null')] as const;
        });
      expect(events.map(([event]) => event)).toEqual(['delta', 'delta', 'done']);
      expect(events[0]?.[1]).toEqual({ text: 'Either party may end it with ninety days of notice [1].' });
      expect(AskResponse.parse(events[2]?.[1])).toEqual(json);
    } finally {
      generator = null;
    }
  });

  it('cancels the generation when the client goes away', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    generator = {
      label: 'slow',
      async *stream({ signal }) {
        yield 'Either party may terminate [1]. ';
        started();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted();
      },
    };
    try {
      const client = new AbortController();
      const response = await server.fetch('/api/ask', {
        method: 'POST',
        headers: { cookie: cookies.ana ?? '', 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ question: 'How can the supplier agreement be terminated?' }),
        signal: client.signal,
      });
      await streaming;
      client.abort();
      await response.body?.cancel().catch(() => undefined);
      await sawAbort;
    } finally {
      generator = null;
    }
  });

  it('finds by vectors once an embedder is configured, and backfills passages of files analysed before', async () => {
    const file = await upload('ana', '', 'glossary.md', 'A flimnar is the blue widget on the left.');
    expect(await cited('ana', 'zorbex')).toEqual([]);
    embedder = conceptEmbedder;
    try {
      await server.app.ask.backfill();
      expect(await cited('ana', 'zorbex')).toEqual(['glossary.md']);
    } finally {
      embedder = null;
    }
    // As if analysed before passages existed: the scheduled backfill cuts them again.
    await sql`delete from passages where file_id = ${file.id}`.execute(server.app.database.db);
    expect(await cited('ana', 'blue widget')).toEqual([]);
    expect(await server.app.ask.backfill()).toBeGreaterThanOrEqual(1);
    expect(await cited('ana', 'blue widget')).toEqual(['glossary.md']);
  });

  it.each([1_000, 7_000])(
    'finds the one readable passage behind %i better-ranked ones the asker may not read',
    async (count) => {
      // Passages of Cleo's, each saying "numbat" four times, rank above Ana's one mention: the engine's best hundred
      // hold none Ana may read. Behind 1,000, SQLite finds hers in a later round of the engine's best; behind 7,000,
      // beyond the most it checks that way, retrieval falls back to the condition in the query.
      const theirs = await upload('cleo', '', 'numbat-survey.md', 'Numbat survey notes.');
      const text = 'Numbat numbat numbat: the numbat habitat survey.';
      const db = server.app.database.db;
      const words = dialect === 'postgres' ? sql`, atrium_search_words(${text}::text)` : sql``;
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into passages (file_id, ordinal, text${dialect === 'postgres' ? sql`, text_tsv` : sql``})
      select ${theirs.id}, i, ${text}${words} from n`.execute(db);
      const mine = await upload(
        'ana',
        '',
        `island-trip-${count}.md`,
        'On the island trip we met a numbat near the ferry.',
      );
      expect(await cited('ana', 'numbat')).toEqual([`island-trip-${count}.md`]);
      expect((await cited('cleo', 'numbat')).every((name) => name.startsWith('numbat-survey'))).toBe(true);
      await deleteForGood(['cleo', theirs], ['ana', mine]);
    },
  );

  it.each([1_000, 7_000])(
    'finds by vectors the one readable passage behind %i nearer ones the asker may not read',
    async (count) => {
      // Cleo's passages carry the question's own vector: each is nearer than Ana's one (ties go to the earlier). Behind
      // 1,000, a later slice of the nearest finds hers; behind 7,000, beyond the most checked that way, every readable
      // passage is ranked instead.
      const theirs = await upload('cleo', '', `zorbex-survey-${count}.md`, 'Survey notes.');
      const db = server.app.database.db;
      const text = 'Survey of the quarry.';
      const words = dialect === 'postgres' ? sql`, atrium_search_words(${text}::text)` : sql``;
      const vector = Buffer.from(Float32Array.from([1, 0.01]).buffer);
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into passages (file_id, ordinal, text${dialect === 'postgres' ? sql`, text_tsv` : sql``})
      select ${theirs.id}, i, ${text}${words} from n`.execute(db);
      await sql`insert into passage_vectors (passage_id, label, vector)
        select passage_id, ${conceptEmbedder.label}, ${vector} from passages
        where file_id = ${theirs.id} and ordinal >= 1`.execute(db);
      const mine = await upload('ana', '', `flimnar-${count}.md`, 'The flimnar sits beside the ferry.');
      embedder = conceptEmbedder;
      try {
        await server.app.ask.backfill();
        const anas = await cited('ana', 'zorbex');
        expect(anas).toContain(`flimnar-${count}.md`);
        expect(anas.filter((name) => name.startsWith('zorbex-survey'))).toEqual([]);
        expect((await cited('cleo', 'zorbex')).every((name) => name.startsWith('zorbex-survey'))).toBe(true);
      } finally {
        embedder = null;
      }
      await deleteForGood(['cleo', theirs], ['ana', mine]);
    },
  );

  it('summarises one readable file, refuses bad input with 400 and the anonymous with 401', async () => {
    const summary = await ask('ana', 'summarise', {
      fileId: (await fileIdOf('supplier-contract.md')) ?? '',
      summarise: true,
    });
    expect(summary.citations[0]?.fileName).toBe('supplier-contract.md');
    expect(summary.answer).toContain('Supplier agreement between Northwind and Atrium. [1]');
    expect((await call('ben', 'POST', '/api/ask', { question: 'x', summarise: true })).status).toBe(400);
    expect((await call('ana', 'POST', '/api/ask', { question: '' })).status).toBe(400);
    expect((await call('ana', 'POST', '/api/ask', { question: 'x'.repeat(501) })).status).toBe(400);
    const anonymous = await server.fetch('/api/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'anything' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('limits questions per user, not per address', async () => {
    await server.signInAs({ owner_key: 'dee' }).then((cookie) => (cookies.dee = cookie));
    for (let i = 0; i < ASK_PER_MINUTE; i += 1)
      expect((await call('dee', 'POST', '/api/ask', { question: 'q' })).status).toBe(200);
    const refused = await call('dee', 'POST', '/api/ask', { question: 'q' });
    expect(refused.status).toBe(429);
    expect(await readJson(refused)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    // Another person from the same address still asks.
    expect((await call('ben', 'POST', '/api/ask', { question: 'q' })).status).toBe(200);
  });

  async function fileIdOf(name: string): Promise<string | undefined> {
    const { rows } = await sql<{ id: string }>`select id from files where file_name = ${name}`.execute(
      server.app.database.db,
    );
    return rows[0]?.id;
  }
});
