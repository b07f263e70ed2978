import { z } from 'zod';
import { endpoint } from './endpoint';
import { PUBLIC_ENDPOINTS } from './public-endpoints';

/** The four AI services, by the names used in configuration, /readyz and /api/ai/status. */
export const AiServiceName = z.enum(['speechToText', 'textToSpeech', 'faceDetection', 'imageAnalysis']);
export type AiServiceName = z.infer<typeof AiServiceName>;

export const AiProviderName = z.enum(['local', 'azure', 'openai']);
export type AiProviderName = z.infer<typeof AiProviderName>;

/** Azure Speech short-audio REST answer (simple format). */
export const SpeechToTextResult = z
  .object({
    RecognitionStatus: z.string().describe('Success, NoMatch, InitialSilenceTimeout, …'),
    DisplayText: z.string().describe('The recognised text, punctuated for display ("" when nothing was heard)'),
    Offset: z.number().describe('Start of the speech in 100-nanosecond units'),
    Duration: z.number().describe('Length of the speech in 100-nanosecond units'),
  })
  .meta({ id: 'SpeechToTextResult' });
export type SpeechToTextResult = z.infer<typeof SpeechToTextResult>;

export const TEXT_TO_SPEECH_MAX_CHARS = 3000;

export const TextToSpeechRequest = z
  .object({
    text: z.string().describe(`The text to speak: not blank, at most ${TEXT_TO_SPEECH_MAX_CHARS} characters`),
  })
  .meta({ id: 'TextToSpeechRequest' });
export type TextToSpeechRequest = z.infer<typeof TextToSpeechRequest>;

export const FaceEmotion = z.object({
  anger: z.number(),
  contempt: z.number(),
  disgust: z.number(),
  fear: z.number(),
  happiness: z.number(),
  neutral: z.number(),
  sadness: z.number(),
  surprise: z.number(),
});
export type FaceEmotion = z.infer<typeof FaceEmotion>;

/** One face as Azure Face v1.0 `detect` returns it (returnFaceAttributes=age,gender,emotion). */
export const DetectedFace = z
  .object({
    faceId: z.string(),
    faceRectangle: z.object({ top: z.number(), left: z.number(), width: z.number(), height: z.number() }),
    faceAttributes: z.object({ age: z.number(), gender: z.string(), emotion: FaceEmotion }),
  })
  .meta({ id: 'DetectedFace' });
export type DetectedFace = z.infer<typeof DetectedFace>;

export const FaceDetectionResult = z.array(DetectedFace).meta({ id: 'FaceDetectionResult' });
export type FaceDetectionResult = z.infer<typeof FaceDetectionResult>;

/** Computer Vision v3.2 `analyze` answer for visualFeatures=Categories,Description,Color. */
export const ImageAnalysisResult = z
  .looseObject({
    categories: z.array(z.looseObject({ name: z.string(), score: z.number() })),
    description: z.looseObject({
      tags: z.array(z.string()),
      captions: z.array(z.object({ text: z.string(), confidence: z.number() })),
    }),
    color: z.looseObject({
      dominantColorForeground: z.string(),
      dominantColorBackground: z.string(),
      dominantColors: z.array(z.string()),
      accentColor: z.string(),
      isBWImg: z.boolean(),
      isBwImg: z.boolean().optional(),
    }),
    requestId: z.string(),
    metadata: z.looseObject({ width: z.number(), height: z.number(), format: z.string() }),
  })
  .meta({ id: 'ImageAnalysisResult' });
export type ImageAnalysisResult = z.infer<typeof ImageAnalysisResult>;

export const AiServiceStatus = z.object({
  provider: z.enum(['local', 'azure', 'openai', 'none']),
  status: z.enum(['ok', 'loading', 'error', 'disabled']),
  message: z.string().optional(),
  /** Local engines only: whether the models are in memory now (they load on first use, unload when idle). */
  loaded: z.boolean().optional(),
});
export type AiServiceStatus = z.infer<typeof AiServiceStatus>;

export const AiStatusResponse = z
  .object({
    speechToText: AiServiceStatus,
    textToSpeech: AiServiceStatus,
    faceDetection: AiServiceStatus,
    imageAnalysis: AiServiceStatus,
  })
  .meta({ id: 'AiStatusResponse' });
export type AiStatusResponse = z.infer<typeof AiStatusResponse>;

/** ?fileId= runs a service on a file already in the caller's storage. */
export const AiFileQuery = z.object({ fileId: z.string().min(1).max(200).optional() });
export type AiFileQuery = z.infer<typeof AiFileQuery>;

// --- API keys for the compatibility endpoints ---

export const ApiKeyRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to recognise it'),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    expiresAt: z.string().nullable().describe('When the key stops working (ISO-8601), or null: never'),
    createdByName: z.string().nullable().describe("The creator's display name (or owner key), null if deleted"),
  })
  .meta({ id: 'ApiKeyRecord' });
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const ApiKeyList = z.array(ApiKeyRecord).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const CreateApiKeyRequest = z
  .object({
    name: z.string().trim().min(1, 'Please name the key.').max(100),
    expiresAt: z.iso
      .datetime({ offset: true, message: 'Please give the expiry as an ISO-8601 date and time.' })
      .nullable()
      .optional()
      .describe('When the key stops working; omitted or null: never. Must be in the future.'),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

export const CreatedApiKey = ApiKeyRecord.extend({
  key: z.string().describe('The secret key. Shown only in this answer; only its hash is stored.'),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** What the admin API keys screen and the API say. */
export const API_KEY_TEXTS = {
  expiryInPast: 'The expiry must be in the future.',
  shownOnce: 'Copy this key now: you will not see it again.',
  revokeConfirm: 'Revoke this key? Programs using it stop working at once.',
  empty: 'No API keys yet.',
} as const;

export const ApiKeyIdParams = z.object({ id: z.string().min(1).max(100) });

// --- OpenAI-compatible wire formats ---

export const OpenAiTranscription = z.object({ text: z.string() }).meta({ id: 'OpenAiTranscription' });
export type OpenAiTranscription = z.infer<typeof OpenAiTranscription>;

export const OpenAiSpeechRequest = z
  .object({
    model: z.string().optional(),
    input: z.string(),
    voice: z.string().optional(),
    response_format: z.string().optional(),
    speed: z.number().optional(),
  })
  .meta({ id: 'OpenAiSpeechRequest' });
export type OpenAiSpeechRequest = z.infer<typeof OpenAiSpeechRequest>;

/** The ai endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const aiEndpoints = {
  /** A WAV file: the body (audio/wav), multipart field `file`, or a stored file (`?fileId=`). */
  speechToText: endpoint({
    method: 'POST',
    path: '/api/ai/speech-to-text',
    query: AiFileQuery,
    response: SpeechToTextResult,
  }),
  /** An image: the body, multipart field `file`, or a stored file (`?fileId=`). */
  faceDetection: endpoint({
    method: 'POST',
    path: '/api/ai/face-detection',
    query: AiFileQuery,
    response: FaceDetectionResult,
  }),
  /** An image: the body, multipart field `file`, or a stored file (`?fileId=`). */
  imageAnalysis: endpoint({
    method: 'POST',
    path: '/api/ai/image-analysis',
    query: AiFileQuery,
    response: ImageAnalysisResult,
  }),
  /**
   * JSON `{ text }` (`TextToSpeechRequest`) or SSML (application/ssml+xml), read by the handler, which takes both;
   * answers audio/mpeg.
   */
  textToSpeech: endpoint({ method: 'POST', path: '/api/ai/text-to-speech' }),
  status: endpoint({ method: 'GET', path: '/api/ai/status', response: AiStatusResponse }),
  createKey: endpoint({
    method: 'POST',
    path: '/api/ai/keys',
    body: CreateApiKeyRequest,
    response: CreatedApiKey,
    status: 201,
  }),
  keys: endpoint({ method: 'GET', path: '/api/ai/keys', response: ApiKeyList }),
  revokeKey: endpoint({ method: 'DELETE', path: '/api/ai/keys/:id', params: ApiKeyIdParams, response: ApiKeyRecord }),
} as const;

/** The assistant endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const assistantEndpoints = {
  /** A short spoken command (body audio/wav); public, rate-limited per client. */
  voiceCommand: endpoint({ ...PUBLIC_ENDPOINTS.assistant.voiceCommand, response: SpeechToTextResult }),
} as const;
