import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, wrap } from '../test-utils';
import { FaceBoxes, FileInsightsPanel, timestamp } from './file-insights';

afterEach(() => vi.unstubAllGlobals());

describe('FileInsightsPanel', () => {
  it('says it is analysing, with progress, then shows what was found', async () => {
    const answers = [
      { status: 'running', progress: 0.4, engine: null, analysedAt: null },
      {
        status: 'done',
        text: 'Harbour 17',
        caption: 'a boat',
        tags: ['boat', 'water'],
        engine: 'tesseract OCR',
        analysedAt: '2026-11-24T10:00:00.000Z',
      },
    ];
    const fetchMock = vi.fn(async (_url: string) => json(200, answers.length > 1 ? answers.shift() : answers[0]));
    vi.stubGlobal('fetch', fetchMock);
    wrap(<FileInsightsPanel fileId="f1" />);
    expect((await screen.findByRole('status')).textContent).toBe('Analysing… 40%');
    expect(screen.getByRole('progressbar', { name: 'Analysis progress' }).getAttribute('value')).toBe('40');
    const text = await screen.findByRole('textbox', { name: 'Text in this file' }, { timeout: 4000 });
    expect((text as HTMLTextAreaElement).value).toBe('Harbour 17');
    expect(screen.getByText('a boat')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Tags' }).textContent).toBe('boatwater');
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('/api/files/f1/insights');
  });

  it('copies the text', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.stubGlobal('fetch', async () => json(200, { status: 'done', text: 'Quarterly', engine: 'x', analysedAt: null }));
    wrap(<FileInsightsPanel fileId="f2" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('Quarterly');
    expect(await screen.findByText('Text in this file')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy());
  });

  it('seeks the player to a transcript segment', async () => {
    vi.stubGlobal('fetch', async () =>
      json(200, {
        status: 'done',
        transcript: {
          text: 'hello there general',
          segments: [
            { start: 0.5, end: 2, text: 'hello there' },
            { start: 65, end: 67, text: 'general' },
          ],
        },
        engine: 'speech to text (local)',
        analysedAt: null,
      }),
    );
    const media = createRef<HTMLMediaElement | null>() as { current: HTMLMediaElement | null };
    const audio = document.createElement('audio');
    audio.play = vi.fn(async () => undefined);
    media.current = audio;
    wrap(<FileInsightsPanel fileId="f3" media={media} />);
    await userEvent.click(await screen.findByRole('button', { name: '1:05 general' }));
    expect(audio.currentTime).toBe(65);
    expect(audio.play).toHaveBeenCalled();
  });

  it('says when a kind of file has no insights, or the analysis failed', async () => {
    vi.stubGlobal('fetch', async () => json(200, { status: 'unsupported', engine: null, analysedAt: null }));
    wrap(<FileInsightsPanel fileId="f4" />);
    expect(await screen.findByText('There are no insights for this kind of file.')).toBeTruthy();
  });

  it('draws a box around each face found', async () => {
    vi.stubGlobal('fetch', async () =>
      json(200, {
        status: 'done',
        faces: [
          { box: { left: 0.1, top: 0.2, width: 0.3, height: 0.4 }, age: 31.6, gender: 'female', emotion: 'happiness' },
        ],
        engine: 'face detection (local)',
        analysedAt: null,
      }),
    );
    wrap(<FaceBoxes fileId="f5" />);
    const boxes = await screen.findByTestId('face-boxes');
    const rect = boxes.querySelector('rect');
    expect([rect?.getAttribute('x'), rect?.getAttribute('y'), rect?.getAttribute('width')]).toEqual([
      '0.1',
      '0.2',
      '0.3',
    ]);
    expect(boxes.querySelector('title')?.textContent).toBe('About 32, female, happiness');
  });

  it('writes timestamps as m:ss or h:mm:ss', () => {
    expect(timestamp(0)).toBe('0:00');
    expect(timestamp(65.4)).toBe('1:05');
    expect(timestamp(3725)).toBe('1:02:05');
  });
});
