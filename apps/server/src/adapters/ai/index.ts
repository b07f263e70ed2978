/**
 * One provider interface per AI service (`types.ts`: speech to text, text to speech, face detection, image analysis),
 * chosen per service by `AI_PROVIDER` / `AI_*_PROVIDER`: `local` (the offline engines of `local/`, worker threads with
 * a queue and time-out, loaded on first use or at start with `AI_WARM_UP`, unloaded after `AI_IDLE_UNLOAD_MINUTES` when
 * set), `azure`, `openai` (an OpenAI-compatible audio server) or `disabled`. `media.ts` checks image and WAV headers
 * and reads SSML the same way for every provider; `errors.ts` maps engine and upstream failures to AppErrors
 * (400/413/415 for input, 503 with Retry-After when busy or a Debian package is missing, 504 on time-out).
 */
import type { AiServiceName } from '@atrium/contracts';
import type { AiConfig } from '../../config';
import { AppError } from '../../errors';
import {
  createAzureFaceDetection,
  createAzureImageAnalysis,
  createAzureSpeechToText,
  createAzureTextToSpeech,
} from './azure';
import { serviceLabel } from './errors';
import { createLocalProviders, type LocalEnginesLoader } from './local-provider';
import { createOpenAiSpeechToText, createOpenAiTextToSpeech } from './openai';
import type { AiProviders } from './types';

export type { AiProviders } from './types';

const ENV_NAME: Record<AiServiceName, string> = {
  speechToText: 'AI_SPEECH_TO_TEXT_PROVIDER',
  textToSpeech: 'AI_TEXT_TO_SPEECH_PROVIDER',
  faceDetection: 'AI_FACE_DETECTION_PROVIDER',
  imageAnalysis: 'AI_IMAGE_ANALYSIS_PROVIDER',
};

function disabled(service: AiServiceName) {
  const message = `${serviceLabel(service)} is turned off on this server (${ENV_NAME[service]}=disabled).`;
  const fail = (): never => {
    throw new AppError('SERVICE_UNAVAILABLE', message);
  };
  return { name: 'none' as const, state: () => ({ status: 'disabled' as const, message }), fail };
}

/**
 * Chooses the provider of each service from configuration (AI_PROVIDER and
 * the per-service overrides, already validated by config/ai.ts). The local
 * engines are loaded only if a service uses them.
 */
export function createAiProviders(config: AiConfig, loadLocal: LocalEnginesLoader): AiProviders {
  const { providers, timeoutMs, azure, openai } = config;
  const usesLocal = Object.values(providers).includes('local');
  const local = createLocalProviders(loadLocal);
  const missing = (what: string): never => {
    throw new Error(`${what} is not configured`);
  };

  const pick = <S extends AiServiceName>(
    service: S,
    remote: { azure?: () => AiProviders[S]; openai?: () => AiProviders[S] },
  ) => {
    const choice = providers[service];
    if (choice === 'local') return local[service] as AiProviders[S];
    if (choice === 'azure' && remote.azure) return remote.azure();
    if (choice === 'openai' && remote.openai) return remote.openai();
    return undefined;
  };

  const stt = pick('speechToText', {
    azure: () => createAzureSpeechToText(azure.speech ?? missing('Azure speech'), timeoutMs),
    openai: () => createOpenAiSpeechToText(openai ?? missing('OpenAI'), timeoutMs),
  });
  const tts = pick('textToSpeech', {
    azure: () => createAzureTextToSpeech(azure.speech ?? missing('Azure speech'), timeoutMs),
    openai: () => createOpenAiTextToSpeech(openai ?? missing('OpenAI'), timeoutMs),
  });
  const face = pick('faceDetection', {
    azure: () => createAzureFaceDetection(azure.face ?? missing('Azure Face'), timeoutMs),
  });
  const vision = pick('imageAnalysis', {
    azure: () => createAzureImageAnalysis(azure.vision ?? missing('Azure Vision'), timeoutMs),
  });

  const off = {
    speechToText: disabled('speechToText'),
    textToSpeech: disabled('textToSpeech'),
    faceDetection: disabled('faceDetection'),
    imageAnalysis: disabled('imageAnalysis'),
  };
  return {
    speechToText: stt ?? { ...off.speechToText, transcribe: async () => off.speechToText.fail() },
    textToSpeech: tts ?? { ...off.textToSpeech, synthesize: async () => off.textToSpeech.fail() },
    faceDetection: face ?? { ...off.faceDetection, detectFaces: async () => off.faceDetection.fail() },
    imageAnalysis: vision ?? { ...off.imageAnalysis, analyzeImage: async () => off.imageAnalysis.fail() },
    warmUp: () => {
      if (usesLocal) local.warmUp();
    },
    close: () => local.close(),
  };
}
