import type { PublicLink } from '@atrium/contracts';
import { LINK_TEXTS } from '@atrium/contracts/texts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderAt, stubApi } from '../test-utils';
import PublicLinkPage, { goneMessage } from './public-link';

afterEach(() => vi.unstubAllGlobals());

const META = '/api/public/links/tok';
const open = () => renderAt(<PublicLinkPage />, '/s/tok', '/s/:token');

/** A plain link: no password, no uploads, no end date. */
const plainLink = { locked: false, allowUpload: false, expiresAt: null } as const;

const fileLink: PublicLink = {
  kind: 'file',
  ...plainLink,
  file: { fileName: 'photo.png', size: 2048, contentType: 'image/png', uploadDate: '2026-11-20T10:00:00.000Z' },
};

const folderLink: PublicLink = {
  kind: 'folder',
  ...plainLink,
  folder: {
    id: 'root',
    name: 'Q4 report',
    path: [{ id: 'root', name: 'Q4 report' }],
    nextCursor: null,
    folders: [{ id: 'sub1', name: 'Drafts' }],
    files: [
      {
        id: 'a1',
        fileName: 'summary.pdf',
        size: 1_048_576,
        contentType: 'application/pdf',
        uploadDate: '2026-11-20T10:00:00.000Z',
      },
      { id: 'a2', fileName: 'notes.txt', size: 10, contentType: 'text/plain', uploadDate: '2026-11-20T10:00:00.000Z' },
    ],
  },
};

describe('public link page', () => {
  it('shows a file with its size, an image preview and a Download button; marks the page noindex', async () => {
    stubApi({ [`GET ${META}`]: () => json(200, fileLink) });
    open();
    expect(await screen.findByRole('heading', { name: 'photo.png' })).toBeTruthy();
    expect(screen.getByText('2.00 KB · image/png')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`${META}/download`);
    // A preview counts as a download on the server: it loads only when asked for.
    expect(screen.queryByRole('img')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show preview' }));
    expect(screen.getByRole('img', { name: 'Preview of photo.png' }).getAttribute('src')).toBe(
      `${META}/download?inline=1`,
    );
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toContain('noindex');
    expect(document.querySelector('meta[name="referrer"]')?.getAttribute('content')).toBe('no-referrer');
    expect(document.title).toContain('photo.png');
    expect(document.querySelectorAll('meta[name="robots"]')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Atrium' }).getAttribute('href')).toBe('/');
  });

  it('previews a PDF inline only when asked, next to its Download', async () => {
    stubApi({
      [`GET ${META}`]: () =>
        json(200, { ...fileLink, file: { ...fileLink.file, fileName: 'a.pdf', contentType: 'application/pdf' } }),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'a.pdf' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download' })).toBeTruthy();
    expect(screen.queryByTitle('Preview of a.pdf')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show preview' }));
    expect(screen.getByTitle('Preview of a.pdf').getAttribute('src')).toMatch(/\/download\?inline=1$/);
  });

  it("keeps the server's noindex meta as it is (no duplicate) and removes only its own on leaving", async () => {
    const server = document.createElement('meta');
    server.name = 'robots';
    server.content = 'noindex, nofollow';
    document.head.append(server);
    stubApi({ [`GET ${META}`]: () => json(200, fileLink) });
    const { unmount } = open();
    await screen.findByRole('heading', { name: 'photo.png' });
    expect([...document.querySelectorAll('meta[name="robots"]')]).toEqual([server]);
    expect(document.querySelectorAll('meta[name="referrer"]')).toHaveLength(1);
    unmount();
    expect([...document.querySelectorAll('meta[name="robots"]')]).toEqual([server]);
    expect(document.querySelectorAll('meta[name="referrer"]')).toHaveLength(0);
    server.remove();
  });

  it('lists a folder with per-file downloads and "Download all (zip)"', async () => {
    stubApi({ [`GET ${META}`]: () => json(200, folderLink) });
    open();
    expect(await screen.findByRole('heading', { name: 'Q4 report' })).toBeTruthy();
    expect(screen.getByText('2 files · 1 folder')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download all (zip)' }).getAttribute('href')).toBe(`${META}/zip`);
    const contents = screen.getByRole('list', { name: 'Contents' });
    expect(
      within(contents)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Drafts', 'summary.pdf1.00 MBOpenDownload', 'notes.txt10 BytesOpenDownload']);
    expect(screen.getByRole('link', { name: 'Download notes.txt' }).getAttribute('href')).toBe(
      `${META}/files/a2/download`,
    );
  });

  it('opens a subfolder (breadcrumbs back up, no zip there) and pages with "Show more"', async () => {
    const drafts = (cursor: string | null, names: string[]) => ({
      ...folderLink,
      folder: {
        id: 'sub1',
        name: 'Drafts',
        path: [
          { id: 'root', name: 'Q4 report' },
          { id: 'sub1', name: 'Drafts' },
        ],
        nextCursor: cursor,
        folders: [],
        files: names.map((name) => ({
          id: name,
          fileName: name,
          size: 1,
          contentType: 'text/plain',
          uploadDate: '2026-11-20T10:00:00.000Z',
        })),
      },
    });
    const calls = stubApi({
      [`GET ${META}`]: () => json(200, folderLink),
      [`GET ${META}?folderId=sub1`]: () => json(200, drafts('c2', ['d1.txt'])),
      [`GET ${META}?folderId=sub1&cursor=c2`]: () => json(200, drafts(null, ['d2.txt'])),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Drafts' }));
    expect(await screen.findByRole('heading', { name: 'Drafts' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download all (zip)' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Contents' })).getAllByRole('listitem')).toHaveLength(2),
    );
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    await userEvent.click(within(crumbs).getByRole('button', { name: 'Q4 report' }));
    expect(await screen.findByRole('heading', { name: 'Q4 report' })).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual([META, `${META}?folderId=sub1`, `${META}?folderId=sub1&cursor=c2`, META]);
  });

  it('asks for the password of a locked link, says when it is wrong, then shows the content', async () => {
    let unlocked = false;
    const calls = stubApi({
      [`GET ${META}`]: () =>
        unlocked ? json(200, fileLink) : json(401, { error: { code: 'UNAUTHENTICATED', message: 'Locked.' } }),
      [`POST ${META}/unlock`]: (call) => {
        unlocked = (call.body as { password: string }).password === 'right';
        return unlocked
          ? json(200, { unlocked: true })
          : json(401, { error: { code: 'INVALID_CREDENTIALS', message: 'Wrong password.' } });
      },
    });
    open();
    expect(await screen.findByRole('heading', { name: LINK_TEXTS.locked })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect((await screen.findByRole('alert')).textContent).toBe(LINK_TEXTS.wrongPassword);
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'right');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('heading', { name: 'photo.png' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { password: 'wrong' },
      { password: 'right' },
    ]);
  });

  it('also shows the password form when the metadata says locked', async () => {
    stubApi({
      [`GET ${META}`]: () => json(200, { kind: 'folder', locked: true, allowUpload: false, expiresAt: null }),
    });
    open();
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it.each([
    [410, 'LINK_EXPIRED', LINK_TEXTS.expired, LINK_TEXTS.expired],
    [410, 'LINK_USED_UP', LINK_TEXTS.usedUp, LINK_TEXTS.usedUp],
    [404, 'NOT_FOUND', 'Not found.', LINK_TEXTS.revoked],
    [410, 'GONE', 'Gone.', LINK_TEXTS.revoked],
  ])('says why a link answering %i %s cannot be opened', async (status, code, message, shown) => {
    stubApi({ [`GET ${META}`]: () => json(status, { error: { code, message } }) });
    open();
    expect(await screen.findByRole('heading', { name: shown })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('maps codes to texts when the server words the message differently', () => {
    expect(goneMessage(410, 'LINK_EXPIRED', 'Expired at noon.')).toBe(LINK_TEXTS.expired);
    expect(goneMessage(410, 'DOWNLOAD_LIMIT_REACHED', 'x')).toBe(LINK_TEXTS.usedUp);
    expect(goneMessage(404, 'LINK_EXPIRED', 'x')).toBe(LINK_TEXTS.revoked);
  });

  it('gives a file-drop link an upload area and no listing, and reports each upload', async () => {
    const sent: string[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      url = '';
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {}
      abort() {}
      send(body: FormData) {
        const file = body.get('file') as File;
        sent.push(`${this.url} ${file.name}`);
        const tooBig = file.name === 'huge.bin';
        this.status = tooBig ? 413 : 201;
        this.responseText = tooBig
          ? JSON.stringify({ error: { code: 'QUOTA_EXCEEDED', message: 'The folder owner is out of space.' } })
          : '{}';
        queueMicrotask(() => this.onload?.());
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    stubApi({
      [`GET ${META}`]: () =>
        json(200, { kind: 'folder', locked: false, allowUpload: true, expiresAt: null, sharedBy: 'Alice Example' }),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Upload files' })).toBeTruthy();
    expect(screen.getByText('Alice Example asks you for files.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Contents' })).toBeNull();
    await userEvent.upload(screen.getByLabelText('Choose files'), [
      new File(['hello'], 'a.txt', { type: 'text/plain' }),
      new File(['x'], 'huge.bin'),
    ]);
    const uploads = await screen.findByRole('list', { name: 'Uploads' });
    await waitFor(() =>
      expect(
        within(uploads)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['a.txtUploaded', 'huge.binThe folder owner is out of space.']),
    );
    expect(sent).toEqual([`${META}/upload a.txt`, `${META}/upload huge.bin`]);
    fireEvent.drop(screen.getByTestId('drop-zone'), {
      dataTransfer: { files: [new File(['y'], 'dropped.txt')] },
    });
    await waitFor(() => expect(within(uploads).getAllByRole('listitem')).toHaveLength(3));
  });

  it('checks a Download first: a used-up link says so in the page instead of a silent cancelled download', async () => {
    let usedUp = false;
    const gone = () => json(410, { error: { code: 'LINK_USED_UP', message: LINK_TEXTS.usedUp } });
    const calls = stubApi({
      [`GET ${META}`]: () => (usedUp ? gone() : json(200, fileLink)),
      [`HEAD ${META}/download`]: () => (usedUp ? new Response(null, { status: 410 }) : new Response(null)),
      [`GET ${META}/download`]: gone,
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    open();
    await userEvent.click(await screen.findByRole('link', { name: 'Download' }));
    // Allowed: handed to the browser as a download, after a HEAD that counts nothing.
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([`GET ${META}`, `HEAD ${META}/download`]);

    usedUp = true;
    await userEvent.click(screen.getByRole('link', { name: 'Download' }));
    expect(await screen.findByRole('heading', { name: LINK_TEXTS.usedUp })).toBeTruthy();
    expect(click).toHaveBeenCalledOnce();
  });
});
