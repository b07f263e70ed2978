import { randomUUID } from 'node:crypto';
import type { FileInsights, FileRecord, SearchResponse } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, placePersonWithFace, sendJson, startTestServer, type TestServer } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How modules meet, through the real app: each reaction is subscribed by the module that reacts, and the path
 * upload → `file.stored` → analysis → `file.analysed` → search content, then a person renamed → `people.changed` →
 * search content, runs end to end (docs/ARCHITECTURE.md#where-modules-meet-domain-events).
 */
describe.each(dialects())('modules meet through domain events (%s)', (dialect) => {
  let server: TestServer;
  let owner: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ANALYSIS_ENABLED: 'true', THUMBNAILS_IN_BACKGROUND: 'true' } });
    owner = await server.signInAs({ owner_key: 'reactions-owner' });
  });
  afterAll(async () => server?.close());

  const send = (method: string, url: string, body?: unknown) => sendJson(server, owner, method, url, body);
  const search = async (q: string) =>
    (await expectJson<SearchResponse>(send('GET', `/api/search?q=${encodeURIComponent(q)}`))).items.map((i) => i.id);
  async function analysed(id: string): Promise<FileInsights> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const insights = await expectJson<FileInsights>(send('GET', `/api/files/${id}/insights`));
      if (!['pending', 'running'].includes(insights.status)) return insights;
      await sleep(100);
    }
    throw new Error(`analysis of ${id} did not finish`);
  }

  it('subscribes each reaction in the module that reacts, a stored file’s analysis before its thumbnail', () => {
    const { events } = server.app;
    expect(events.reactionsTo('file.stored')).toEqual(['analysis', 'thumbnails', 'metrics']);
    expect(events.reactionsTo('file.analysed')).toEqual(['search content', 'ask passages']);
    expect(events.reactionsTo('people.changed')).toEqual(['search content']);
    expect(events.reactionsTo('file.reanalyse')).toEqual(['analysis']);
    expect(events.reactionsTo('member.added')).toEqual(['membership notice', 'membership email']);
    expect(events.reactionsTo('share.granted')).toEqual(['share notice', 'share email']);
    expect(events.reactionsTo('invitation.sent')).toEqual(['invitation email']);
    expect(events.reactionsTo('password.reset.issued')).toEqual(['password reset email']);
    expect(events.reactionsTo('signup.requested')).toEqual(['sign-up email']);
    expect(events.reactionsTo('items.purged')).toEqual(['dav']);
    // The audit log hears every audited change first.
    expect(events.reactionsTo('share.created')[0]).toBe('audit.record');
  });

  it('makes a stored file searchable by what analysis read in it and by the names of the people in it', async () => {
    const stored: string[] = [];
    const off = server.app.events.on('file.stored', 'test', ({ file }) => void stored.push(file.id));
    const form = new FormData();
    form.append('file', new Blob(['Field notes: an okapi by the lighthouse.']), 'notes.txt');
    const file = await expectJson<FileRecord>(
      server.fetch('/api/files/upload', {
        method: 'POST',
        headers: { cookie: owner, accept: 'application/json' },
        body: form,
      }),
    );
    off();
    // Announced before the upload was answered.
    expect(stored).toEqual([file.id]);
    expect((await analysed(file.id)).status).toBe('done');
    expect(await search('okapi')).toContain(file.id);

    // A person in the file (as face analysis would have placed one), then named: the name becomes searchable, and
    // what analysis read stays.
    const personId = randomUUID();
    await placePersonWithFace(server.app.database.db, {
      fileId: file.id,
      spaceKey: 'personal:reactions-owner',
      workspaceId: null,
      personId,
      faceId: randomUUID(),
    });
    expect(await search('zebediah')).toEqual([]);
    await expectJson(send('PATCH', `/api/spaces/personal/people/${personId}`, { name: 'Zebediah' }));
    expect(await search('zebediah')).toEqual([file.id]);
    expect(await search('okapi')).toContain(file.id);

    // Renamed: the old name no longer finds the file, the new one does.
    await expectJson(send('PATCH', `/api/spaces/personal/people/${personId}`, { name: 'Quentin' }));
    expect(await search('zebediah')).toEqual([]);
    expect(await search('quentin')).toEqual([file.id]);
  });
});
