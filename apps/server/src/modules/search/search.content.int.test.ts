import { FileInsights, type FileRecord, type SearchResponse } from '@atrium/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsAs, dialects, readJson, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Search by what is inside a file (docs/PRODUCT.md#search), wired as the app wires it: background analysis reads the
 * file, its text goes into the search index, and a word found only inside the file finds it — for its readers only.
 */
describe.each(dialects())('search by content through background analysis (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ANALYSIS_ENABLED: 'true' } });
    cookies.owner = await server.signInAs({ owner_key: 'content-owner' });
    cookies.stranger = await server.signInAs({ owner_key: 'content-stranger' });
  });
  afterAll(async () => server?.close());
  const { call, json } = callsAs(() => server, cookies);

  async function upload(name: string, bytes: Buffer): Promise<FileRecord> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return json<FileRecord>(
      await server.fetch('/api/files/upload?userId=content-owner', {
        method: 'POST',
        headers: { cookie: cookies.owner ?? '', accept: 'application/json' },
        body: form,
      }),
    );
  }
  async function analysed(id: string): Promise<FileInsights> {
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      const insights = FileInsights.parse(await readJson(await call('owner', 'GET', `/api/files/${id}/insights`)));
      if (!['pending', 'running'].includes(insights.status)) return insights;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`analysis of ${id} did not finish`);
  }
  const found = async (who: string, q: string) =>
    (await json<SearchResponse>(await call(who, 'GET', `/api/search?q=${q}`))).items.map((item) => item.name);

  it(
    'finds a text file and an image by a word only inside them, with a snippet; never for others',
    { timeout: 200_000 },
    async () => {
      const note = await upload('minutes.md', Buffer.from('# Minutes\n\nWe agreed on the quetzal budget.\n'));
      const scan = await upload(
        'scan.png',
        await sharp(
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="100%" height="100%" fill="white"/>' +
              '<text x="40" y="120" font-family="DejaVu Sans, sans-serif" font-size="72" fill="black">AXOLOTL PLAN</text></svg>',
          ),
        )
          .png()
          .toBuffer(),
      );
      expect((await analysed(note.id)).status).toBe('done');
      expect((await analysed(scan.id)).text?.toLowerCase()).toContain('axolotl');

      const byText = await json<SearchResponse>(await call('owner', 'GET', '/api/search?q=quetz'));
      expect(byText.items.map((item) => item.name)).toEqual(['minutes.md']);
      expect(byText.items[0]?.snippet.toLowerCase()).toContain('quetzal');
      expect(await found('owner', 'axolotl')).toEqual(['scan.png']);
      expect(await found('stranger', 'quetzal')).toEqual([]);
      expect(await found('stranger', 'axolotl')).toEqual([]);
    },
  );
});
