import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  endpoint,
  FaceDetectionResult,
  ImageAnalysisResult,
  OpenAiSpeechRequest,
  type OpenAiTranscription,
  SpeechToTextResult,
} from '@atrium/contracts';
import { AppError } from '../../errors';
import { toAppError } from '../../plugins/errors';
import '../../plugins/access';
import type { AiService } from './ai.service';
import type { ApiKeysService } from './api-keys.service';
import { readUpload, registerMediaParsers, tooLargeMessage } from './ai.input';
import { routesOf } from '../../plugins/route';

/** For outside clients, not the web: outside the endpoint table (`ENDPOINTS`), declared here the same way. */
const COMPAT = {
  recognition: endpoint({
    method: 'POST',
    path: '/speech/recognition/conversation/cognitiveservices/v1',
    response: SpeechToTextResult,
  }),
  synthesis: endpoint({ method: 'POST', path: '/cognitiveservices/v1' }),
  faces: endpoint({ method: 'POST', path: '/face/v1.0/detect', response: FaceDetectionResult }),
  vision: endpoint({ method: 'POST', path: '/vision/v3.2/analyze', response: ImageAnalysisResult }),
  transcriptions: endpoint({ method: 'POST', path: '/v1/audio/transcriptions' }),
  speech: endpoint({ method: 'POST', path: '/v1/audio/speech' }),
};

const AZURE_ACCESS_DENIED =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
const TTS_FORMAT = 'audio-16khz-32kbitrate-mono-mp3';

const isOpenAiRoute = (request: FastifyRequest) => (request.routeOptions.url ?? request.url).startsWith('/v1/');

/** Azure's `{ error: { code, message } }` codes for our error codes. */
function azureCode(error: AppError, request: FastifyRequest): string {
  const image = /\/(face|vision)\//.test(request.url);
  switch (error.code) {
    case 'UNAUTHENTICATED':
      return '401';
    case 'INVALID_MEDIA':
      return image ? 'InvalidImage' : 'BadArgument';
    case 'PAYLOAD_TOO_LARGE':
      return image ? 'InvalidImageSize' : 'BadArgument';
    case 'SERVICE_UNAVAILABLE':
      return error.headers?.['retry-after'] ? '429' : 'ServiceUnavailable';
    case 'TIMEOUT':
      return 'Timeout';
    case 'INTERNAL':
    case 'UPSTREAM_FAILED':
      return 'InternalServerError';
    case 'ROUTE_NOT_FOUND':
    case 'NOT_FOUND':
      return 'NotFound';
    default:
      return 'BadArgument';
  }
}

/** Answers in the wire format of the API the client thinks it is talking to. */
function sendCompatError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.headers) void reply.headers(error.headers);
  void reply.header('x-request-id', request.id).status(error.statusCode).type('application/json; charset=utf-8');
  if (isOpenAiRoute(request)) {
    const unauthenticated = error.code === 'UNAUTHENTICATED';
    return reply.send({
      error: {
        message: error.message,
        type: error.statusCode >= 500 ? 'server_error' : 'invalid_request_error',
        param: null,
        code: unauthenticated ? 'invalid_api_key' : error.code.toLowerCase(),
      },
    });
  }
  return reply.send({ error: { code: azureCode(error, request), message: error.message } });
}

/**
 * Azure- and OpenAI-compatible paths, so existing clients can point at Atrium
 * with an API key an admin created (header `Ocp-Apim-Subscription-Key` or
 * `Authorization: Bearer`). The session cookie is not accepted here.
 */
export async function registerAiCompatRoutes(
  app: FastifyInstance,
  { ai, keys }: { ai: AiService; keys: ApiKeysService },
) {
  const { limits } = ai;
  await app.register(async (scope) => {
    await registerMediaParsers(scope, Math.max(limits.audioBytes, limits.imageBytes));
    const bodyLimits: Record<string, [string, number]> = {
      [COMPAT.recognition.path]: ['audio file', limits.audioBytes],
      [COMPAT.synthesis.path]: ['SSML document', 256 * 1024],
      [COMPAT.faces.path]: ['image', limits.imageBytes],
      [COMPAT.vision.path]: ['image', limits.imageBytes],
      [COMPAT.speech.path]: ['request', 256 * 1024],
    };
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      let appError = toAppError(error);
      const limit = bodyLimits[request.routeOptions.url ?? ''];
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && limit)
        appError = new AppError('PAYLOAD_TOO_LARGE', tooLargeMessage(limit[0], limit[1]));
      if (appError.statusCode >= 500) request.log.error({ err: appError.cause ?? error }, 'request failed');
      return sendCompatError(request, reply, appError);
    });
    scope.addHook('onRequest', async (request) => {
      const header = request.headers['ocp-apim-subscription-key'];
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const key = (typeof header === 'string' ? header : undefined) ?? bearer;
      const valid = key ? await keys.verify(key) : null;
      if (!valid) {
        throw new AppError(
          'UNAUTHENTICATED',
          isOpenAiRoute(request)
            ? key
              ? 'Incorrect API key provided.'
              : "You didn't provide an API key. Send it as Authorization: Bearer <key>."
            : AZURE_ACCESS_DENIED,
        );
      }
    });
    const apikey = { access: 'apikey' as const };

    const serve = routesOf(scope, { config: apikey, tags: ['ai-compat'] });

    serve(COMPAT.recognition, {
      bodyLimit: limits.audioBytes,
      summary: 'Azure Speech short-audio recognition',
      handler: async (request) => {
        const { language } = request.query as { language?: string };
        if (language && language.toLowerCase() !== 'en-us')
          throw new AppError('BAD_REQUEST', `Language ${language} is not supported; use en-US.`);
        const { buffer } = await readUpload(request, { what: 'audio', maxBytes: limits.audioBytes });
        return ai.transcribe(buffer);
      },
    });

    serve(COMPAT.synthesis, {
      bodyLimit: 256 * 1024,
      summary: 'Azure neural TTS (SSML in, MP3 out)',
      handler: async (request, reply) => {
        const format = request.headers['x-microsoft-outputformat'];
        if (format && format !== TTS_FORMAT)
          throw new AppError('BAD_REQUEST', `Output format ${String(format)} is not supported; use ${TTS_FORMAT}.`);
        if (typeof request.body !== 'string')
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send an SSML document as application/ssml+xml.');
        const audio = await ai.synthesize({ ssml: request.body });
        return reply.type('audio/mpeg').send(audio);
      },
    });

    for (const [declared, summary, run] of [
      [COMPAT.faces, 'Azure Face v1.0 detect', ai.detectFaces],
      [COMPAT.vision, 'Azure Computer Vision v3.2 analyze', ai.analyzeImage],
    ] as const) {
      serve(declared, {
        bodyLimit: limits.imageBytes,
        summary,
        handler: async (request) => {
          if (request.body && !Buffer.isBuffer(request.body))
            throw new AppError(
              'BAD_REQUEST',
              'Send the image bytes as application/octet-stream; image URLs are not fetched.',
            );
          const { buffer } = await readUpload(request, { what: 'image', maxBytes: limits.imageBytes });
          return run(buffer);
        },
      });
    }

    // No response schema: answers JSON { text } or, with response_format=text, plain text.
    serve(COMPAT.transcriptions, {
      summary: 'OpenAI-compatible transcription (multipart "file" WAV, "model")',
      handler: async (request, reply) => {
        if (!request.isMultipart()) throw new AppError('BAD_REQUEST', 'Send multipart/form-data with a "file" field.');
        const { buffer, fields } = await readUpload(request, { what: 'audio', maxBytes: limits.audioBytes });
        const format = fields.response_format ?? 'json';
        if (!['json', 'text'].includes(format))
          throw new AppError('BAD_REQUEST', `response_format ${format} is not supported; use json or text.`);
        const result = await ai.transcribe(buffer);
        if (format === 'text') return reply.type('text/plain; charset=utf-8').send(result.DisplayText);
        const answer: OpenAiTranscription = { text: result.DisplayText };
        return answer;
      },
    });

    serve(COMPAT.speech, {
      bodyLimit: 256 * 1024,
      summary: 'OpenAI-compatible speech (JSON { model, input, voice }) → audio/mpeg',
      handler: async (request, reply) => {
        const parsed = OpenAiSpeechRequest.safeParse(request.body);
        if (!parsed.success) throw new AppError('BAD_REQUEST', 'Send JSON { "model", "input", "voice" }.');
        const format = parsed.data.response_format ?? 'mp3';
        if (format !== 'mp3') throw new AppError('BAD_REQUEST', `response_format ${format} is not supported; use mp3.`);
        const audio = await ai.synthesize({ text: parsed.data.input });
        return reply.type('audio/mpeg').send(audio);
      },
    });
  });
}
