import { AskResponse, FileInsights } from '@atrium/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  expectJson,
  readError,
  readJson,
  sendJson,
  startTestServer,
  uploadFile,
  type TestServer,
} from './helpers';

type Caller = 'owner' | 'editor' | 'viewer' | 'nonMember' | 'recipient' | 'admin';

/**
 * `POST /api/ask` by caller (docs/SECURITY.md: Ask never cites a file the asker cannot read): what each finds of a
 * workspace's file, the owner's personal file, and a file in a personal folder shared with one person; anonymous
 * callers and bearers without a session 401. Passages come from real analysis of the uploaded text files.
 */
describe.each(dialects())('access-control matrix: ask your files (%s)', (dialect) => {
  let server: TestServer;
  const cookies = {} as Record<Caller, string>;
  const keys: Record<Exclude<Caller, 'admin'>, string> = {
    owner: 'ak-owner',
    editor: 'ak-editor',
    viewer: 'ak-viewer',
    nonMember: 'ak-stranger',
    recipient: 'ak-recipient',
  };
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ANALYSIS_ENABLED: 'true' } });
    for (const [who, key] of Object.entries(keys)) cookies[who as Caller] = await server.signInAs({ owner_key: key });
    cookies.admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => server?.close());
  const send = (who: Caller, method: string, url: string, body?: unknown) =>
    sendJson(server, cookies[who], method, url, body);

  async function put(query: string, name: string, text: string): Promise<string> {
    const file = await expectJson<{ id: string }>(uploadFile(server, cookies.owner, query, name, text));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const insights = FileInsights.parse(await readJson(await send('owner', 'GET', `/api/files/${file.id}/insights`)));
      const { rows } = await sql<{ n: number }>`select count(*) as n from passages where file_id = ${file.id}`.execute(
        server.app.database.db,
      );
      if (insights.status === 'done' && Number(rows[0]?.n) > 0) return file.id;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no passages for ${name}`);
  }

  it('cites only the files each caller may read: owner, editor, viewer, non-member, recipient, admin, anonymous, bearer', async () => {
    const ws = await expectJson<{ id: string; rootFolderId: string }>(
      send('owner', 'POST', '/api/workspaces', { name: 'Ask matrix' }),
      201,
    );
    for (const who of ['editor', 'viewer'] as const)
      await expectJson(send('owner', 'PUT', `/api/workspaces/${ws.id}/members/${keys[who]}`, { role: who }));
    const lentFolder = await expectJson<{ id: string }>(send('owner', 'POST', '/api/folders', { name: 'Lent' }), 201);
    const team = await put(`?folderId=${ws.rootFolderId}`, 'team.md', 'The akmatrix plan of the team is ready.');
    const mine = await put('', 'mine.md', 'My own akmatrix plan is private.');
    const lent = await put(`?folderId=${lentFolder.id}`, 'lent.md', 'The lent akmatrix plan is shared.');
    await expectJson(
      send('owner', 'PUT', `/api/folders/${lentFolder.id}/shares/${keys.recipient}`, { role: 'viewer' }),
      201,
    );

    const expected: Record<Caller, string[]> = {
      owner: [team, mine, lent],
      editor: [team],
      viewer: [team],
      nonMember: [],
      recipient: [lent],
      // Admins have no role in workspaces they are not in and no reach into personal spaces.
      admin: [],
    };
    const failures: string[] = [];
    for (const [who, ids] of Object.entries(expected) as [Caller, string[]][]) {
      const answer = await send(who, 'POST', '/api/ask', { question: 'What is the akmatrix plan?' });
      const found =
        answer.status === 200 ? AskResponse.parse(await readJson(answer)).citations.map((c) => c.fileId) : [];
      if (answer.status !== 200 || JSON.stringify([...found].sort()) !== JSON.stringify([...ids].sort()))
        failures.push(`${who}: ${answer.status} cited ${found.length}, expected ${ids.length}`);
      // Asking inside the workspace cites only its files; for anyone not in it the workspace is not found (404).
      const inWorkspace = await send(who, 'POST', '/api/ask', { question: 'akmatrix plan', workspaceId: ws.id });
      if (ids.includes(team)) {
        const inside = AskResponse.parse(await readJson(inWorkspace)).citations.map((c) => c.fileId);
        if (JSON.stringify(inside) !== JSON.stringify([team]))
          failures.push(`${who} in the workspace: ${inside.length}`);
      } else {
        const code = inWorkspace.status === 404 ? (await readError(inWorkspace)).code : inWorkspace.status;
        if (code !== 'WORKSPACE_NOT_FOUND') failures.push(`${who} in a workspace not theirs: ${code}`);
      }
      // A summary of a file the caller may not read is the not-found answer, never the file's text.
      const summary = AskResponse.parse(
        await readJson(await send(who, 'POST', '/api/ask', { question: 's', fileId: mine, summarise: true })),
      );
      if (summary.citations.length > 0 !== (who === 'owner')) failures.push(`${who} summarised mine.md`);
    }
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Record<string, string>[]) {
      const answer = await server.fetch('/api/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ question: 'akmatrix plan' }),
      });
      if (answer.status !== 401) failures.push(`without a session: ${answer.status}`);
    }
    expect(failures).toEqual([]);
  });
});
