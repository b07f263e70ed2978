import { FaceDetectionResult, ImageAnalysisResult, SpeechToTextResult } from '@atrium/contracts';
import type { AiConfig } from '../../config';
import { textToSsml } from './media';
import { callUpstream, upstreamJson } from './remote';
import type { FaceDetectionProvider, ImageAnalysisProvider, SpeechToTextProvider, TextToSpeechProvider } from './types';

type AzureConfig = AiConfig['azure'];
const ready = () => ({ status: 'ok' as const, message: 'Azure AI services' });

/** Azure Speech short-audio REST recognition (simple format, en-US). */
export function createAzureSpeechToText(
  config: NonNullable<AzureConfig['speech']>,
  timeoutMs: number,
): SpeechToTextProvider {
  return {
    name: 'azure',
    state: ready,
    async transcribe(wav) {
      const url = `${config.sttEndpoint}/speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=simple`;
      const response = await callUpstream(
        'speechToText',
        'azure',
        url,
        {
          method: 'POST',
          headers: {
            'Ocp-Apim-Subscription-Key': config.key,
            'Content-Type': 'audio/wav; codecs=audio/pcm; samplerate=16000',
            Accept: 'application/json',
          },
          body: wav,
        },
        timeoutMs,
      );
      const result = await upstreamJson(
        response,
        (value) =>
          SpeechToTextResult.safeParse(
            value && typeof value === 'object' ? { DisplayText: '', Offset: 0, Duration: 0, ...value } : value,
          ),
        'Speech to text',
      );
      return result;
    },
  };
}

/** Azure neural TTS: SSML in, MP3 16 kHz 32 kbit/s mono out. */
export function createAzureTextToSpeech(
  config: NonNullable<AzureConfig['speech']>,
  timeoutMs: number,
): TextToSpeechProvider {
  return {
    name: 'azure',
    state: ready,
    async synthesize(input) {
      const ssml = input.ssml ?? textToSsml(input.text ?? '', config.voice);
      const response = await callUpstream(
        'textToSpeech',
        'azure',
        `${config.ttsEndpoint}/cognitiveservices/v1`,
        {
          method: 'POST',
          headers: {
            'Ocp-Apim-Subscription-Key': config.key,
            'Content-Type': 'application/ssml+xml',
            'X-Microsoft-OutputFormat': 'audio-16khz-32kbitrate-mono-mp3',
            'User-Agent': 'atrium',
          },
          body: ssml,
        },
        timeoutMs,
      );
      return Buffer.from(await response.arrayBuffer());
    },
  };
}

/** Azure Face v1.0 detect with age, gender and emotion. */
export function createAzureFaceDetection(
  config: NonNullable<AzureConfig['face']>,
  timeoutMs: number,
): FaceDetectionProvider {
  return {
    name: 'azure',
    state: ready,
    async detectFaces(image) {
      const query = 'returnFaceId=true&returnFaceAttributes=age,gender,emotion&detectionModel=detection_01';
      const response = await callUpstream(
        'faceDetection',
        'azure',
        `${config.endpoint}/face/v1.0/detect?${query}`,
        {
          method: 'POST',
          headers: { 'Ocp-Apim-Subscription-Key': config.key, 'Content-Type': 'application/octet-stream' },
          body: image,
        },
        timeoutMs,
      );
      return upstreamJson(response, (value) => FaceDetectionResult.safeParse(value), 'Face detection');
    },
  };
}

/** Azure Computer Vision v3.2 analyze (Categories, Description, Color). */
export function createAzureImageAnalysis(
  config: NonNullable<AzureConfig['vision']>,
  timeoutMs: number,
): ImageAnalysisProvider {
  return {
    name: 'azure',
    state: ready,
    async analyzeImage(image) {
      const response = await callUpstream(
        'imageAnalysis',
        'azure',
        `${config.endpoint}/vision/v3.2/analyze?visualFeatures=Categories,Description,Color`,
        {
          method: 'POST',
          headers: { 'Ocp-Apim-Subscription-Key': config.key, 'Content-Type': 'application/octet-stream' },
          body: image,
        },
        timeoutMs,
      );
      return upstreamJson(response, (value) => ImageAnalysisResult.safeParse(value), 'Image analysis');
    },
  };
}
