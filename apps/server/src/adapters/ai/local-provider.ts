import { FaceDetectionResult, ImageAnalysisResult, SpeechToTextResult, type AiServiceName } from '@atrium/contracts';
import { z } from 'zod';
import type { AiEngineState, AiProviders, TextToSpeechInput } from './types';

/**
 * What the local engines module (`./local`) exposes: every call runs in a
 * worker, queued, with a time-out. Answers are checked against the contracts
 * here, so the engines' own types may differ in detail.
 */
export interface LocalAiEngines {
  transcribe(wav: Buffer, options?: { adaptationText?: string }): Promise<object>;
  synthesize(input: TextToSpeechInput): Promise<Buffer>;
  detectFaces(image: Buffer, options?: { descriptors?: boolean }): Promise<object[]>;
  analyzeImage(image: Buffer): Promise<object>;
  warmUp(): Promise<unknown> | unknown;
  state(): Record<AiServiceName, { status: string; message?: string }>;
  close(): Promise<unknown> | unknown;
}

export type LocalEnginesLoader = () => Promise<LocalAiEngines>;

/** Maps an engine's own status words onto the readiness vocabulary. */
export function toEngineState(state: { status: string; message?: string } | undefined): AiEngineState {
  if (!state) return { status: 'loading' };
  const status = state.status.toLowerCase();
  const message = state.message ? { message: state.message } : {};
  if (['ok', 'ready', 'idle-ready'].includes(status)) return { status: 'ok', ...message, loaded: true };
  // Not loaded (yet, or again after the idle unload): ready to serve, the next request loads it.
  if (['idle', 'cold', 'not-loaded', 'unloaded'].includes(status)) return { status: 'ok', ...message, loaded: false };
  if (['loading', 'starting', 'pending', 'warming'].includes(status))
    return { status: 'loading', ...message, loaded: false };
  // A missing Debian/npm package does not make the server unready: the service answers 503 naming it.
  if (
    ['disabled', 'unavailable', 'missing'].includes(status) ||
    /needs the (Debian|npm) package/.test(state.message ?? '')
  )
    return { status: 'disabled', ...message };
  return { status: 'error', ...message };
}

/**
 * The local provider of every service, on top of one shared engines
 * instance that is created on first use (or by warmUp() after start-up).
 */
export function createLocalProviders(load: LocalEnginesLoader): Omit<AiProviders, 'close' | 'warmUp'> & {
  warmUp(): void;
  close(): Promise<void>;
} {
  let engines: Promise<LocalAiEngines> | undefined;
  let loaded: LocalAiEngines | undefined;
  let loadError: Error | undefined;
  const get = () => {
    engines ??= load().then(
      (value) => {
        loaded = value;
        return value;
      },
      (error: unknown) => {
        loadError = error instanceof Error ? error : new Error(String(error));
        throw error;
      },
    );
    return engines;
  };
  const state = (service: AiServiceName): AiEngineState => {
    if (loadError) return { status: 'disabled', message: loadError.message };
    if (!loaded) return { status: 'ok', message: 'Not loaded yet; loads on the first request', loaded: false };
    return toEngineState(loaded.state()[service]);
  };
  return {
    speechToText: {
      name: 'local',
      state: () => state('speechToText'),
      transcribe: async (wav, options) => SpeechToTextResult.parse(await (await get()).transcribe(wav, options)),
    },
    textToSpeech: {
      name: 'local',
      state: () => state('textToSpeech'),
      synthesize: async (input) => (await get()).synthesize(input),
    },
    faceDetection: {
      name: 'local',
      state: () => state('faceDetection'),
      detectFaces: async (image) => FaceDetectionResult.parse(await (await get()).detectFaces(image)),
      async describeFaces(image) {
        const raw = await (await get()).detectFaces(image, { descriptors: true });
        return FaceDetectionResult.parse(raw).map((face, i) => ({
          ...face,
          descriptor: z
            .array(z.number())
            .length(128)
            .parse((raw[i] as { descriptor?: unknown }).descriptor),
        }));
      },
    },
    imageAnalysis: {
      name: 'local',
      state: () => state('imageAnalysis'),
      analyzeImage: async (image) => ImageAnalysisResult.parse(await (await get()).analyzeImage(image)),
    },
    warmUp() {
      get()
        .then((value) => value.warmUp())
        .catch(() => undefined);
    },
    async close() {
      if (engines) await (await engines.catch(() => undefined))?.close();
    },
  };
}
