import type { AiServiceName, AiStatusResponse, ImageAnalysisResult } from '@atrium/contracts';
import { TEXT_TO_SPEECH_MAX_CHARS } from '@atrium/contracts';
import { toAiAppError } from '../../adapters/ai/errors';
import { imageSize, looksLikeWav, sniffImage, ssmlToText } from '../../adapters/ai/media';
import { BadMediaError } from '../../adapters/ai/local/errors';
import { readWavHeader, type WavInfo } from '../../adapters/ai/local/wav';
import type { AiProviders } from '../../adapters/ai/types';
import type { AiConfig } from '../../config';
import { AppError } from '../../errors';

const SERVICES: AiServiceName[] = ['speechToText', 'textToSpeech', 'faceDetection', 'imageAnalysis'];
const MAX_SSML_CHARS = TEXT_TO_SPEECH_MAX_CHARS * 4;
const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export const INVALID_IMAGE_TYPE_MESSAGE = 'Please upload a PNG or JPG format image.';

/**
 * The AI services behind /api/ai/* and the compatibility endpoints: checks
 * every input against the limits before any engine sees it, then maps engine
 * and provider failures to AppErrors (4xx for bad input, 503/504 for capacity).
 */
export function createAiService({ providers, limits }: { providers: AiProviders; limits: AiConfig['limits'] }) {
  const run = async <T>(service: AiServiceName, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toAiAppError(error, service);
    }
  };

  function checkAudio(wav: Buffer, maxSeconds = limits.audioSeconds) {
    if (wav.length === 0) throw new AppError('BAD_REQUEST', 'The audio is empty. Please send a WAV file.');
    if (wav.length > limits.audioBytes)
      throw new AppError('PAYLOAD_TOO_LARGE', `The audio file is larger than ${mb(limits.audioBytes)}.`);
    let info: WavInfo;
    try {
      info = readWavHeader(wav);
    } catch (error) {
      if (!looksLikeWav(wav)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Please send a WAV audio file (audio/wav).');
      if (error instanceof BadMediaError)
        throw new AppError('INVALID_MEDIA', 'The WAV file could not be read. It may be damaged.', { cause: error });
      throw toAiAppError(error, 'speechToText');
    }
    if (info.durationSeconds > maxSeconds) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The audio is ${info.durationSeconds.toFixed(1)} seconds long; the limit is ${maxSeconds} seconds.`,
      );
    }
    if (info.durationSeconds === 0) throw new AppError('INVALID_MEDIA', 'The WAV file contains no audio.');
  }

  function checkImage(image: Buffer) {
    if (image.length === 0) throw new AppError('BAD_REQUEST', 'The image is empty. Please send a PNG or JPG image.');
    if (image.length > limits.imageBytes)
      throw new AppError('PAYLOAD_TOO_LARGE', `The image is larger than ${mb(limits.imageBytes)}.`);
    const kind = sniffImage(image);
    if (!kind) throw new AppError('UNSUPPORTED_MEDIA_TYPE', INVALID_IMAGE_TYPE_MESSAGE);
    const size = imageSize(image, kind);
    if (!size || size.width === 0 || size.height === 0)
      throw new AppError('INVALID_MEDIA', 'The image could not be read. It may be damaged.');
    if (size.width * size.height > limits.imagePixels) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The image is ${size.width}×${size.height} pixels; the limit is ${Math.floor(limits.imagePixels / 1e6)} megapixels.`,
      );
    }
  }

  function checkText(input: { text?: string; ssml?: string }): { text: string } | { ssml: string } {
    if (input.ssml !== undefined) {
      if (input.ssml.length > MAX_SSML_CHARS)
        throw new AppError('PAYLOAD_TOO_LARGE', `The SSML document is longer than ${MAX_SSML_CHARS} characters.`);
      if (!/<speak[\s>]/.test(input.ssml) || !/<\/speak>\s*$/.test(input.ssml))
        throw new AppError('BAD_REQUEST', 'The SSML document must be a <speak> element.');
      const spoken = ssmlToText(input.ssml);
      if (!spoken) throw new AppError('BAD_REQUEST', 'Please enter some text to synthesize.');
      if (spoken.length > TEXT_TO_SPEECH_MAX_CHARS)
        throw new AppError('PAYLOAD_TOO_LARGE', `The text is longer than ${TEXT_TO_SPEECH_MAX_CHARS} characters.`);
      return { ssml: input.ssml };
    }
    const text = input.text ?? '';
    if (!text.trim()) throw new AppError('BAD_REQUEST', 'Please enter some text to synthesize.');
    if (text.length > TEXT_TO_SPEECH_MAX_CHARS)
      throw new AppError('PAYLOAD_TOO_LARGE', `The text is longer than ${TEXT_TO_SPEECH_MAX_CHARS} characters.`);
    return { text };
  }

  return {
    limits,
    /**
     * `maxSeconds`: a tighter length limit than AI_MAX_AUDIO_SECONDS (the public voice commands).
     * `adaptationText`: only for transcripts of stored files; remote providers ignore it.
     */
    async transcribe(wav: Buffer, options: { maxSeconds?: number; adaptationText?: string } = {}) {
      checkAudio(wav, Math.min(options.maxSeconds ?? limits.audioSeconds, limits.audioSeconds));
      const { adaptationText } = options;
      return run('speechToText', () =>
        adaptationText
          ? providers.speechToText.transcribe(wav, { adaptationText })
          : providers.speechToText.transcribe(wav),
      );
    },
    async synthesize(input: { text?: string; ssml?: string }) {
      const checked = checkText(input);
      return run('textToSpeech', () => providers.textToSpeech.synthesize(checked));
    },
    async detectFaces(image: Buffer) {
      checkImage(image);
      return run('faceDetection', () => providers.faceDetection.detectFaces(image));
    },
    /** Faces with their recognition descriptors (People): 503 where the face provider has none (not local). */
    async describeFaces(image: Buffer) {
      checkImage(image);
      const provider = providers.faceDetection;
      const describe = provider.describeFaces?.bind(provider);
      if (!describe)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'People needs the local face engine (AI_FACE_DETECTION_PROVIDER=local): face descriptors are computed here.',
        );
      return run('faceDetection', () => describe(image));
    },
    async analyzeImage(image: Buffer): Promise<ImageAnalysisResult> {
      checkImage(image);
      return run('imageAnalysis', () => providers.imageAnalysis.analyzeImage(image));
    },
    status(): AiStatusResponse {
      const entries = SERVICES.map((service) => {
        const provider = providers[service];
        return [service, { provider: provider.name, ...provider.state() }] as const;
      });
      return Object.fromEntries(entries) as AiStatusResponse;
    },
  };
}

export type AiService = ReturnType<typeof createAiService>;
