import { describe, expect, it } from 'vitest';
import { summariseAiReadiness } from './home-figures';

describe('summariseAiReadiness', () => {
  it('counts the AI checks that are ok, ignoring other checks', () => {
    expect(
      summariseAiReadiness({
        status: 'error',
        checks: {
          database: { status: 'ok' },
          'ai.speechToText': { status: 'ok' },
          'ai.textToSpeech': { status: 'error' },
          'ai.faceDetection': { status: 'loading' },
          'ai.imageAnalysis': { status: 'ok' },
        },
      }),
    ).toEqual({ ready: 2, configured: 4, total: 4 });
  });
  it('reports nothing configured when no AI check is registered', () => {
    expect(summariseAiReadiness({ status: 'ok', checks: { database: { status: 'ok' } } })).toEqual({
      ready: 0,
      configured: 0,
      total: 4,
    });
  });
});
