import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FaceDetectionPage from './face-detection';
import SpeechToTextPage from './speech-to-text';
import TextToSpeechPage from './text-to-speech';

const wrap = (node: ReactNode) =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { mutations: { retry: false }, queries: { retry: false } } })}
    >
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const DATE = '2026-11-20T10:00:00.000Z';
const record = (id: string, fileName: string, contentType: string) => ({
  id,
  fileId: id,
  fileName,
  size: 2048,
  contentType,
  uploadDate: DATE,
});
const listing = (
  id: string,
  workspaceId: string | null,
  folders: { id: string; name: string }[],
  files: ReturnType<typeof record>[],
) => ({
  id,
  name: '',
  parentId: null,
  workspaceId,
  path: [{ id, name: '' }],
  createdAt: DATE,
  folders: folders.map((folder) => ({ ...folder, createdAt: DATE, updatedAt: DATE })),
  files,
  nextCursor: null,
});

/** The caller's places: their own space, a workspace where they only view, and one image shared with them. */
const API: Record<string, () => Response> = {
  'GET /api/spaces': () =>
    json(200, [
      { kind: 'personal', id: null, name: 'Personal', rootFolderId: 'root-p' },
      { kind: 'workspace', id: 'ws1', name: 'Team', role: 'viewer', rootFolderId: 'root-w' },
    ]),
  'GET /api/shared-with-me': () =>
    json(200, {
      files: [
        { ...record('shared-img', 'holiday.jpg', 'image/jpeg'), role: 'viewer', sharedBy: 'Bob', sharedAt: DATE },
        { ...record('shared-doc', 'plan.pdf', 'application/pdf'), role: 'viewer', sharedBy: 'Bob', sharedAt: DATE },
      ],
      folders: [],
    }),
  'GET /api/folders/root-p': () =>
    json(
      200,
      listing(
        'root-p',
        null,
        [{ id: 'rec', name: 'Recordings' }],
        [record('note', 'note.txt', 'text/plain'), record('talk', 'talk.wav', 'audio/wav')],
      ),
    ),
  'GET /api/folders/rec': () => json(200, listing('rec', null, [], [])),
  'GET /api/folders/root-w': () => json(200, listing('root-w', 'ws1', [], [record('w', 'team.png', 'image/png')])),
  'POST /api/ai/speech-to-text': () =>
    json(200, { RecognitionStatus: 'Success', DisplayText: 'Hello there.', Offset: 0, Duration: 1 }),
  'POST /api/ai/face-detection': () =>
    json(200, [
      {
        faceId: 'f1',
        faceRectangle: { top: 1, left: 2, width: 3, height: 4 },
        faceAttributes: {
          age: 30,
          gender: 'female',
          emotion: {
            anger: 0,
            contempt: 0,
            disgust: 0,
            fear: 0,
            happiness: 1,
            neutral: 0,
            sadness: 0,
            surprise: 0,
          },
        },
      },
    ]),
};

let calls: { method: string; url: string; body: unknown }[];

/** Uploads go through XMLHttpRequest (progress): this one records them and answers with `answer`. */
let uploads: { url: string; accept: string | undefined; file: File }[];
let answer: (file: File) => { status: number; body: unknown };
class FakeXhr {
  status = 0;
  responseText = '';
  upload = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  url = '';
  headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {}
  send(body: FormData) {
    const file = body.get('file') as File;
    uploads.push({ url: this.url, accept: this.headers.accept, file });
    const { status, body: reply } = answer(file);
    this.status = status;
    this.responseText = JSON.stringify(reply);
    queueMicrotask(() => this.onload?.());
  }
}

beforeEach(() => {
  calls = [];
  uploads = [];
  answer = (file) => ({ status: 200, body: record('saved', file.name, file.type) });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url: input, body: init.body });
      const handler = API[`${method} ${input.split('?')[0]}`];
      return handler ? handler() : json(404, { error: { code: 'NOT_FOUND', message: `no stub for ${input}` } });
    }),
  );
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const dialog = () => screen.getByRole('dialog');

describe('the stored-file picker on the AI screens', () => {
  it('walks places and folders by keyboard, lists only WAV files, and transcribes the chosen one with ?fileId=', async () => {
    const user = userEvent.setup();
    wrap(<SpeechToTextPage />);
    await user.click(screen.getByRole('button', { name: 'Choose from files' }));
    expect(within(dialog()).getByRole('heading', { name: 'Choose from files' })).toBeTruthy();
    const places = await within(dialog()).findByRole('list', { name: 'Places' });
    expect(
      within(places)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Open Personal', 'Open Team', 'Open Shared with me']);
    // Focus starts on the first place; the arrow keys move it, Enter opens.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Open Personal'));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Open Team');
    await user.keyboard('{End}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Open Shared with me');
    await user.keyboard('{Home}{Enter}');

    const content = await within(dialog()).findByRole('list', { name: 'Content of Personal' });
    // A subfolder and the one WAV file; the text file is not offered.
    expect(
      within(content)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Open folder Recordings', 'Choose talk.wav']);
    expect(within(dialog()).getByText('1 other file here is not WAV audio files.')).toBeTruthy();
    const crumbs = within(dialog()).getByRole('navigation', { name: 'Location' });
    expect(crumbs.textContent).toBe('All placesPersonal');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Open folder Recordings'));

    await user.keyboard('{Enter}');
    expect(await within(dialog()).findByText('No WAV audio files or folders here.')).toBeTruthy();
    expect(crumbs.textContent).toBe('All placesPersonalRecordings');
    await user.keyboard('{Backspace}');
    await user.click(await within(dialog()).findByRole('button', { name: 'Choose talk.wav' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('chosen-file').textContent).toBe('From your files: talk.wav');
    expect(screen.getByLabelText('Selected audio').getAttribute('src')).toBe('/api/files/download/talk?inline=1');

    await user.click(screen.getByRole('button', { name: 'Transcribe' }));
    expect((await screen.findByTestId('transcript')).textContent).toBe('Hello there.');
    const sent = calls.find((call) => call.method === 'POST');
    expect(sent).toEqual({ method: 'POST', url: '/api/ai/speech-to-text?fileId=talk', body: undefined });
  });

  it('saves the transcript as .txt into a folder the caller can edit, and links to it', async () => {
    const user = userEvent.setup();
    wrap(<SpeechToTextPage />);
    await user.upload(
      screen.getByLabelText('Audio file (WAV)'),
      new File(['RIFF'], 'meeting.wav', { type: 'audio/wav' }),
    );
    await user.click(screen.getByRole('button', { name: 'Transcribe' }));
    await screen.findByTestId('transcript');

    await user.click(screen.getByRole('button', { name: 'Save the transcript to files' }));
    expect(within(dialog()).getByRole('heading', { name: 'Save the transcript to files' })).toBeTruthy();
    const save = within(dialog()).getByRole('button', { name: 'Save here' });
    expect(save).toHaveProperty('disabled', true);
    // A workspace where the caller only views: explained, and nothing can be saved there.
    await user.click(await within(dialog()).findByRole('button', { name: 'Open Team' }));
    expect(
      await within(dialog()).findByText(
        'You can view this folder but not add files to it. Choose a folder you can edit.',
      ),
    ).toBeTruthy();
    expect(save).toHaveProperty('disabled', true);
    // Folder mode lists folders only.
    expect(within(dialog()).getByText('No folders inside. Save here, or open another place.')).toBeTruthy();

    await user.click(within(dialog()).getByRole('button', { name: 'All places' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Open Personal' }));
    await within(dialog()).findByRole('button', { name: 'Open folder Recordings' });
    expect(within(dialog()).queryByRole('button', { name: 'Choose talk.wav' })).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Save here' }));

    const status = await screen.findByText(/^Saved/, { selector: '[role="status"]' });
    expect(status.textContent).toBe('Saved meeting transcript.txt to Personal.');
    expect(within(status).getByRole('link', { name: 'Personal' }).getAttribute('href')).toBe(
      '/dashboard/spaces/personal/folders/root-p',
    );
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.url).toBe('/api/files/upload?folderId=root-p');
    expect(uploads[0]?.accept).toBe('application/json');
    expect(uploads[0]?.file.name).toBe('meeting transcript.txt');
    expect(uploads[0]?.file.type).toBe('text/plain;charset=utf-8');
    expect(await uploads[0]?.file.text()).toBe('Hello there.\n');
  });

  it('face detection: picks an image shared with the caller, and explains a full quota or a view-only folder', async () => {
    const user = userEvent.setup();
    wrap(<FaceDetectionPage />);
    await user.click(screen.getByRole('button', { name: 'Choose from files' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Open Shared with me' }));
    const shared = await within(dialog()).findByRole('list', { name: 'Content of Shared with me' });
    expect(
      within(shared)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Choose holiday.jpg']);
    expect(within(dialog()).getByText('1 other file here is not PNG or JPG images.')).toBeTruthy();
    await user.click(within(shared).getByRole('button', { name: 'Choose holiday.jpg' }));
    expect(screen.getByAltText('The selected image').getAttribute('src')).toBe(
      '/api/files/download/shared-img?inline=1',
    );
    await user.click(screen.getByRole('button', { name: 'Detect Faces' }));
    expect(await screen.findByText('1 face detected')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/ai/face-detection?fileId=shared-img',
    ]);

    const saveTo = async () => {
      await user.click(screen.getByRole('button', { name: 'Save the face detection result to files' }));
      await user.click(await within(dialog()).findByRole('button', { name: 'Open Personal' }));
      await within(dialog()).findByRole('button', { name: 'Open folder Recordings' });
      await user.click(within(dialog()).getByRole('button', { name: 'Save here' }));
    };
    answer = () => ({
      status: 413,
      body: { error: { code: 'QUOTA_EXCEEDED', message: 'This upload would exceed your storage quota of 1 MB.' } },
    });
    await saveTo();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not save the face detection result. This upload would exceed your storage quota of 1 MB.',
    );
    answer = () => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'You can only view this folder.' } } });
    await saveTo();
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Could not save the face detection result. You can only view that folder, so nothing can be saved there. Choose a folder you can edit.',
      ),
    );
    expect(uploads.map((upload) => upload.file.name)).toEqual(['holiday faces.json', 'holiday faces.json']);
    const saved = JSON.parse(await (uploads[0]?.file.text() ?? Promise.resolve('null'))) as { faceId: string }[];
    expect(saved.map((face) => face.faceId)).toEqual(['f1']);
    expect(uploads[0]?.file.type).toBe('application/json');
  });

  it('text to speech saves the synthesised audio with the type and extension of the answer', async () => {
    // The answer's blob is made in the test document's realm (a Node Response's blob is not jsdom's Blob).
    const mp3 = new File([new Uint8Array([0xff, 0xfb, 0x90, 0x00])], 'answer', { type: 'audio/mpeg' });
    API['POST /api/ai/text-to-speech'] = () =>
      Object.assign(new Response(null, { status: 200 }), { blob: async () => mp3 });
    const user = userEvent.setup();
    wrap(<TextToSpeechPage />);
    await user.type(screen.getByLabelText('Text'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Synthesize' }));
    await user.click(await screen.findByRole('button', { name: 'Save the speech to files' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Open Personal' }));
    await within(dialog()).findByRole('button', { name: 'Open folder Recordings' });
    await user.click(within(dialog()).getByRole('button', { name: 'Open folder Recordings' }));
    await within(dialog()).findByText('No folders inside. Save here, or open another place.');
    await user.click(within(dialog()).getByRole('button', { name: 'Save here' }));
    expect((await screen.findByText(/^Saved/, { selector: '[role="status"]' })).textContent).toBe(
      'Saved speech.mp3 to Recordings.',
    );
    expect(uploads[0]?.url).toBe('/api/files/upload?folderId=rec');
    expect(uploads[0]?.file.type).toBe('audio/mpeg');
    expect(uploads[0]?.file.size).toBe(4);
    expect(await uploads[0]?.file.text()).toBe(await mp3.text());
  });
});
