import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineUnavailableError, createLocalAiEngines } from './index.js';

const engines = createLocalAiEngines({ faceDetection: false, imageAnalysis: false });
afterAll(async () => {
  await engines.close();
});

describe('createLocalAiEngines', () => {
  it('reports per-engine readiness, starting lazily', async () => {
    expect(engines.state()).toEqual({
      speechToText: { status: 'idle', message: 'Not loaded yet; loads on the first request' },
      textToSpeech: { status: 'idle', message: 'Not loaded yet; loads on the first request' },
      faceDetection: { status: 'error', message: 'disabled' },
      imageAnalysis: { status: 'error', message: 'disabled' },
    });
    const state = await engines.warmUp();
    expect(state.speechToText).toEqual({ status: 'ready' });
    expect(state.textToSpeech).toEqual({ status: 'ready' });
    await expect(engines.detectFaces(Buffer.alloc(10))).rejects.toBeInstanceOf(EngineUnavailableError);
  });

  it('round trip: synthesized speech is recognised', async () => {
    const mp3 = await engines.synthesize({ text: 'Good morning everyone, welcome to the meeting.' });
    // MP3 → WAV through a pipe: ffmpeg writes placeholder sizes and a LIST chunk, which the parser accepts.
    const wav = execFileSync('ffmpeg', ['-v', 'error', '-f', 'mp3', '-i', 'pipe:0', '-f', 'wav', 'pipe:1'], {
      input: mp3,
    });
    const result = await engines.transcribe(wav);
    expect(result.RecognitionStatus).toBe('Success');
    expect(result.DisplayText.toLowerCase()).toContain('welcome to the meeting');
  });
});
