import { z } from 'zod';
import { booleanString, bytes, documented } from './env';

const aiProvider = z.enum(['local', 'azure', 'openai']);
const aiServiceProvider = z.enum(['local', 'azure', 'openai', 'disabled']);
const optionalUrl = z.url().optional();
const perService = (service: string) =>
  documented(
    aiServiceProvider.optional(),
    `provider of ${service} alone: \`local\`, \`azure\`, \`openai\` (speech services only) or \`disabled\``,
    '`AI_PROVIDER`',
  );

/** AI providers (see README, "AI services"). Keys stay on the server. */
export const aiEnv = {
  AI_PROVIDER: aiProvider
    .default('local')
    .describe('provider of every AI service: `local` (offline engines), `azure` or `openai`'),
  AI_SPEECH_TO_TEXT_PROVIDER: perService('speech to text'),
  AI_TEXT_TO_SPEECH_PROVIDER: perService('text to speech'),
  AI_FACE_DETECTION_PROVIDER: perService('face detection'),
  AI_IMAGE_ANALYSIS_PROVIDER: perService('image analysis'),
  AI_MAX_IMAGE_BYTES: documented(bytes.default(6 * 1024 * 1024), 'largest image accepted (413 above it)', '6 MiB'),
  AI_MAX_IMAGE_PIXELS: z.coerce
    .number()
    .int()
    .positive()
    .default(40_000_000)
    .describe('largest image in pixels (413 above it)'),
  AI_MAX_AUDIO_BYTES: documented(bytes.default(16 * 1024 * 1024), 'largest audio accepted (413 above it)', '16 MiB'),
  AI_MAX_AUDIO_SECONDS: z.coerce
    .number()
    .positive()
    .max(600)
    .default(60)
    .describe('longest audio accepted, in seconds (413 above it)'),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000).describe('per-request AI time-out (then 504)'),
  AI_QUEUE_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(16)
    .describe('requests waiting per local engine (503 + `Retry-After` above it)'),
  AI_WARM_UP: booleanString
    .default(false)
    .describe('load the local models in the background after start-up instead of on the first request'),
  AI_IDLE_UNLOAD_MINUTES: z.coerce
    .number()
    .min(0)
    .default(0)
    .describe(
      'unload a local engine (terminate its worker threads) after this many minutes without requests; it loads again on the next one. `0` = never. Each load/unload round currently leaves about 100 MiB behind (docs/BENCHMARKS.md): leave at 0 unless the engines are used rarely',
    ),
  ANALYSIS_ENABLED: booleanString
    .default(true)
    .describe(
      'analyse every stored file in the background (OCR, document text, transcripts, tags, faces) with the AI providers above; with the local engines nothing leaves the machine',
    ),
  STT_ADAPTATION: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'transcripts of stored recordings: adapt the local speech engine’s language model to the space’s own text (its other files’ text, transcripts and names; from 200 words). `off`: the generic model only. The voice assistant and the speech-to-text endpoints never adapt',
    ),
  THUMBNAILS_IN_BACKGROUND: booleanString
    .default(true)
    .describe(
      'make the thumbnail of every new upload (images; PDFs with poppler-utils, videos with ffmpeg) in the background, so the grid view finds it ready; off: each is made on its first request',
    ),
  ANALYSIS_TIMEOUT_MINUTES: z.coerce
    .number()
    .positive()
    .default(30)
    .describe('time-out of one file’s analysis (then retried with backoff, 3 attempts in all)'),
  AI_VOICE_COMMANDS_PER_MINUTE: z.coerce
    .number()
    .int()
    .positive()
    .default(20)
    .describe('voice-assistant transcriptions (`/api/assistant/voice-command`, public) per client IP and minute'),
  AI_LOCAL_VOICE: z
    .enum(['auto', 'festival', 'flite'])
    .default('auto')
    .describe(
      "voice of the local text-to-speech: `festival` (the natural HTS voice of Debian's festvox-us-slt-hts), `flite` (faster, more robotic) or `auto` (festival when installed, else flite)",
    ),
  AZURE_SPEECH_KEY: z.string().min(1).optional().describe('Azure Speech key (when a speech service uses `azure`)'),
  AZURE_SPEECH_REGION: z
    .string()
    .regex(/^[a-z0-9]+$/, 'must be an Azure region name such as westeurope')
    .optional()
    .describe('Azure Speech region, e.g. `westeurope` (or set both endpoints below instead)'),
  AZURE_SPEECH_STT_ENDPOINT: documented(
    optionalUrl,
    'Azure speech-to-text endpoint',
    '`https://<region>.stt.speech.microsoft.com`',
  ),
  AZURE_SPEECH_TTS_ENDPOINT: documented(
    optionalUrl,
    'Azure text-to-speech endpoint',
    '`https://<region>.tts.speech.microsoft.com`',
  ),
  AZURE_SPEECH_VOICE: z.string().min(1).default('en-US-JennyNeural').describe('Azure voice for plain text'),
  AZURE_FACE_ENDPOINT: optionalUrl.describe('Azure Face endpoint (when face detection uses `azure`)'),
  AZURE_FACE_KEY: z.string().min(1).optional().describe('Azure Face key'),
  AZURE_VISION_ENDPOINT: optionalUrl.describe('Azure Computer Vision endpoint (when image analysis uses `azure`)'),
  AZURE_VISION_KEY: z.string().min(1).optional().describe('Azure Computer Vision key'),
  OPENAI_BASE_URL: optionalUrl.describe(
    'any OpenAI-compatible server (OpenAI, whisper.cpp server, LocalAI…) when a speech service uses `openai`',
  ),
  OPENAI_API_KEY: z.string().min(1).optional().describe('its API key, if it needs one'),
  OPENAI_STT_MODEL: z.string().min(1).default('whisper-1').describe('speech-to-text model sent to it'),
  OPENAI_TTS_MODEL: z.string().min(1).default('tts-1').describe('text-to-speech model sent to it'),
  OPENAI_TTS_VOICE: z.string().min(1).default('alloy').describe('text-to-speech voice sent to it'),
};

type AiEnv = z.infer<z.ZodObject<typeof aiEnv>>;

export type AiServiceKey = 'speechToText' | 'textToSpeech' | 'faceDetection' | 'imageAnalysis';
export type AiProviderChoice = 'local' | 'azure' | 'openai' | 'disabled';

export interface AiConfig {
  /** Which provider runs each service. */
  providers: Record<AiServiceKey, AiProviderChoice>;
  limits: { imageBytes: number; imagePixels: number; audioBytes: number; audioSeconds: number };
  timeoutMs: number;
  queueLimit: number;
  /** Load local models in the background after start-up (default: no, they load on first use). */
  warmUp: boolean;
  /** Unload a local engine after this many ms without requests; 0 = never. */
  idleUnloadMs: number;
  /** Public voice-command transcriptions allowed per client IP and minute. */
  voiceCommandsPerMinute: number;
  /** The local text-to-speech voice (docs/PRODUCT.md#local-voices). */
  localVoice: 'auto' | 'festival' | 'flite';
  azure: {
    speech: { key: string; sttEndpoint: string; ttsEndpoint: string; voice: string } | undefined;
    face: { key: string; endpoint: string } | undefined;
    vision: { key: string; endpoint: string } | undefined;
  };
  openai:
    { baseUrl: string; apiKey: string | undefined; sttModel: string; ttsModel: string; voice: string } | undefined;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Resolves AI_PROVIDER and the per-service overrides, listing every missing setting. */
export function resolveAiConfig(env: AiEnv, problems: string[]): AiConfig {
  const perService: Record<AiServiceKey, [keyof AiEnv, AiProviderChoice | undefined]> = {
    speechToText: ['AI_SPEECH_TO_TEXT_PROVIDER', env.AI_SPEECH_TO_TEXT_PROVIDER],
    textToSpeech: ['AI_TEXT_TO_SPEECH_PROVIDER', env.AI_TEXT_TO_SPEECH_PROVIDER],
    faceDetection: ['AI_FACE_DETECTION_PROVIDER', env.AI_FACE_DETECTION_PROVIDER],
    imageAnalysis: ['AI_IMAGE_ANALYSIS_PROVIDER', env.AI_IMAGE_ANALYSIS_PROVIDER],
  };
  const providers = {} as Record<AiServiceKey, AiProviderChoice>;
  for (const [service, [variable, explicit]] of Object.entries(perService) as [
    AiServiceKey,
    [keyof AiEnv, AiProviderChoice | undefined],
  ][]) {
    const visual = service === 'faceDetection' || service === 'imageAnalysis';
    // OpenAI-compatible servers have no face or vision API: those services stay local.
    const fallback = env.AI_PROVIDER === 'openai' && visual ? 'local' : env.AI_PROVIDER;
    const chosen = explicit ?? fallback;
    if (chosen === 'openai' && visual) {
      problems.push(`${variable}: OpenAI-compatible servers have no ${service} API; use local or azure`);
    }
    providers[service] = chosen;
  }
  const uses = (provider: AiProviderChoice, ...services: AiServiceKey[]) =>
    services.some((service) => providers[service] === provider);

  let speech: AiConfig['azure']['speech'];
  if (uses('azure', 'speechToText', 'textToSpeech')) {
    const region = env.AZURE_SPEECH_REGION;
    const stt = env.AZURE_SPEECH_STT_ENDPOINT ?? (region && `https://${region}.stt.speech.microsoft.com`);
    const tts = env.AZURE_SPEECH_TTS_ENDPOINT ?? (region && `https://${region}.tts.speech.microsoft.com`);
    if (!env.AZURE_SPEECH_KEY) problems.push('AZURE_SPEECH_KEY: required when a speech service uses azure');
    if (!stt || !tts)
      problems.push(
        'AZURE_SPEECH_REGION (or AZURE_SPEECH_STT_ENDPOINT and AZURE_SPEECH_TTS_ENDPOINT): required when a speech service uses azure',
      );
    if (env.AZURE_SPEECH_KEY && stt && tts) {
      speech = {
        key: env.AZURE_SPEECH_KEY,
        sttEndpoint: trimSlash(stt),
        ttsEndpoint: trimSlash(tts),
        voice: env.AZURE_SPEECH_VOICE,
      };
    }
  }
  const keyed = (service: AiServiceKey, name: 'FACE' | 'VISION', key?: string, endpoint?: string) => {
    if (providers[service] !== 'azure') return undefined;
    if (!key) problems.push(`AZURE_${name}_KEY: required when ${service} uses azure`);
    if (!endpoint) problems.push(`AZURE_${name}_ENDPOINT: required when ${service} uses azure`);
    return key && endpoint ? { key, endpoint: trimSlash(endpoint) } : undefined;
  };
  const face = keyed('faceDetection', 'FACE', env.AZURE_FACE_KEY, env.AZURE_FACE_ENDPOINT);
  const vision = keyed('imageAnalysis', 'VISION', env.AZURE_VISION_KEY, env.AZURE_VISION_ENDPOINT);

  let openai: AiConfig['openai'];
  if (uses('openai', 'speechToText', 'textToSpeech')) {
    if (!env.OPENAI_BASE_URL) problems.push('OPENAI_BASE_URL: required when a speech service uses openai');
    else
      openai = {
        baseUrl: trimSlash(env.OPENAI_BASE_URL),
        apiKey: env.OPENAI_API_KEY,
        sttModel: env.OPENAI_STT_MODEL,
        ttsModel: env.OPENAI_TTS_MODEL,
        voice: env.OPENAI_TTS_VOICE,
      };
  }
  return {
    providers,
    limits: {
      imageBytes: env.AI_MAX_IMAGE_BYTES,
      imagePixels: env.AI_MAX_IMAGE_PIXELS,
      audioBytes: env.AI_MAX_AUDIO_BYTES,
      audioSeconds: env.AI_MAX_AUDIO_SECONDS,
    },
    timeoutMs: env.AI_TIMEOUT_MS,
    queueLimit: env.AI_QUEUE_LIMIT,
    warmUp: env.AI_WARM_UP,
    idleUnloadMs: Math.round(env.AI_IDLE_UNLOAD_MINUTES * 60_000),
    voiceCommandsPerMinute: env.AI_VOICE_COMMANDS_PER_MINUTE,
    localVoice: env.AI_LOCAL_VOICE,
    azure: { speech, face, vision },
    openai,
  };
}
