/**
 * Local, offline AI engines for Atrium: speech-to-text, text-to-speech, face detection and image
 * analysis, each in its own worker pool, with Azure-compatible response shapes.
 */
import { EngineUnavailableError } from './errors.js';
import { createFaceDetection, type AzureFace, type FaceDetectionOptions } from './face-detection.js';
import { createImageAnalysis, type AnalyzeV32, type ImageAnalysisOptions } from './image-analysis.js';
import type { EngineState } from './pool.js';
import {
  createSpeechToText,
  type AzureSttResult,
  type SpeechToTextOptions,
  type TranscribeOptions,
} from './speech-to-text.js';
import { createTextToSpeech, type SynthesizeInput, type TextToSpeechOptions } from './text-to-speech.js';

export * from './errors.js';
export type { EngineState } from './pool.js';
export type { AzureSttResult, SpeechToTextOptions } from './speech-to-text.js';
export type { SynthesizeInput, TextToSpeechOptions } from './text-to-speech.js';
export type { AzureFace, FaceDetectionOptions } from './face-detection.js';
export type { AnalyzeV32, ImageAnalysisOptions } from './image-analysis.js';

export type EngineName = 'speechToText' | 'textToSpeech' | 'faceDetection' | 'imageAnalysis';

export interface LocalAiOptions {
  /** Options per engine, or `false` to disable it (its calls then fail with EngineUnavailableError). */
  speechToText?: SpeechToTextOptions | false;
  textToSpeech?: TextToSpeechOptions | false;
  faceDetection?: FaceDetectionOptions | false;
  imageAnalysis?: ImageAnalysisOptions | false;
}

export interface LocalAiEngines {
  transcribe(wav: Buffer | Uint8Array, options?: TranscribeOptions): Promise<AzureSttResult>;
  synthesize(input: SynthesizeInput): Promise<Buffer>;
  detectFaces(image: Buffer | Uint8Array, options?: { descriptors?: boolean }): Promise<AzureFace[]>;
  analyzeImage(image: Buffer | Uint8Array): Promise<AnalyzeV32>;
  /** Starts every enabled engine and loads its models; never rejects — failures show in state(). */
  warmUp(): Promise<Record<EngineName, EngineState>>;
  /** For a readiness endpoint. */
  state(): Record<EngineName, EngineState>;
  close(): Promise<void>;
}

interface Lifecycle {
  warmUp(): Promise<void>;
  state(): EngineState;
  close(): Promise<void>;
}

const LABELS: Record<EngineName, string> = {
  speechToText: 'Speech-to-text',
  textToSpeech: 'Text-to-speech',
  faceDetection: 'Face detection',
  imageAnalysis: 'Image analysis',
};

function disabled(name: EngineName): never {
  throw new EngineUnavailableError(`${LABELS[name]} is disabled in this installation`);
}

export function createLocalAiEngines(options: LocalAiOptions = {}): LocalAiEngines {
  const stt = options.speechToText === false ? undefined : createSpeechToText(options.speechToText);
  const tts = options.textToSpeech === false ? undefined : createTextToSpeech(options.textToSpeech);
  const faces = options.faceDetection === false ? undefined : createFaceDetection(options.faceDetection);
  const vision = options.imageAnalysis === false ? undefined : createImageAnalysis(options.imageAnalysis);
  const engines: Record<EngineName, Lifecycle | undefined> = {
    speechToText: stt,
    textToSpeech: tts,
    faceDetection: faces,
    imageAnalysis: vision,
  };
  const names = Object.keys(engines) as EngineName[];
  const state = (): Record<EngineName, EngineState> => {
    const out = {} as Record<EngineName, EngineState>;
    for (const name of names) out[name] = engines[name]?.state() ?? { status: 'error', message: 'disabled' };
    return out;
  };
  return {
    transcribe: async (wav, options) => (stt ?? disabled('speechToText')).transcribe(wav, options),
    synthesize: async (input) => (tts ?? disabled('textToSpeech')).synthesize(input),
    detectFaces: async (image, options) => (faces ?? disabled('faceDetection')).detectFaces(image, options),
    analyzeImage: async (image) => (vision ?? disabled('imageAnalysis')).analyzeImage(image),
    async warmUp() {
      await Promise.allSettled(names.map((name) => engines[name]?.warmUp()));
      return state();
    },
    state,
    async close() {
      await Promise.allSettled(names.map((name) => engines[name]?.close()));
    },
  };
}
