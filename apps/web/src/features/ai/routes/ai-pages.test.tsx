import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FaceDetectionPage from './face-detection';
import SpeechToTextPage from './speech-to-text';
import TextToSpeechPage from './text-to-speech';

const wrap = (node: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      {node}
    </QueryClientProvider>,
  );

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('AI screens (their documented texts)', () => {
  it('speech to text asks for a file first', async () => {
    wrap(<SpeechToTextPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Transcribe' }));
    expect(screen.getByRole('alert')).toHaveProperty('textContent', 'Please select an audio file first');
  });

  it('text to speech refuses blank text without calling the server', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    wrap(<TextToSpeechPage />);
    await userEvent.type(screen.getByLabelText('Text'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Synthesize' }));
    expect(screen.getByRole('alert')).toHaveProperty('textContent', 'Please enter some text to synthesize.');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('text to speech shows its failure message when the server fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'Install flite' } })),
    );
    wrap(<TextToSpeechPage />);
    await userEvent.type(screen.getByLabelText('Text'), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Synthesize' }));
    expect(await screen.findByText('Failed to synthesize speech. Please try again.')).toBeTruthy();
    expect(screen.getByText('Install flite')).toBeTruthy();
  });

  it('face detection: no file, a wrong type, an invalid-media answer and no faces each get their message', async () => {
    const fetchSpy = vi.fn(async () => jsonResponse(415, { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'x' } }));
    vi.stubGlobal('fetch', fetchSpy);
    wrap(<FaceDetectionPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Detect Faces' }));
    expect(screen.getByRole('alert').textContent).toBe('Please select an image file before submitting.');

    const input = screen.getByLabelText('Image (PNG or JPG)');
    await userEvent.upload(input, new File(['GIF89a'], 'a.gif', { type: 'image/gif' }), { applyAccept: false });
    expect(screen.getByRole('alert').textContent).toBe('Please select a valid PNG or JPG file.');

    await userEvent.upload(input, new File(['not really'], 'a.png', { type: 'image/png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Detect Faces' }));
    expect(await screen.findByText('Please upload a PNG or JPG format image.')).toBeTruthy();

    fetchSpy.mockImplementationOnce(async () => jsonResponse(500, { error: { code: 'INTERNAL', message: 'x' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Detect Faces' }));
    expect(await screen.findByText('Error detecting faces. Please try again.')).toBeTruthy();

    fetchSpy.mockImplementationOnce(async () => jsonResponse(200, []));
    await userEvent.click(screen.getByRole('button', { name: 'Detect Faces' }));
    expect(await screen.findByText('No faces detected in the uploaded image.')).toBeTruthy();
  });
});
