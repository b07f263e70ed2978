import { VOICE_COMMAND_RATE_MESSAGE } from '@atrium/contracts/texts';
import { adminOnly } from '../../auth/policies/admin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, TextToSpeechRequest } from '@atrium/contracts';
import { AppError } from '../../errors';
import { sendError, toAppError } from '../../plugins/errors';
import '../../plugins/access';
import type { AiService } from './ai.service';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import type { ApiKeysService } from './api-keys.service';
import type { FileSource } from './file-source';
import { readUpload, registerMediaParsers, tooLargeMessage } from './ai.input';
import { routesOf } from '../../plugins/route';

const E = ENDPOINTS.ai;
const VOICE_COMMAND = ENDPOINTS.assistant.voiceCommand;

export interface AiRouteDeps {
  ai: AiService;
  keys: ApiKeysService;
  events: EventEmitter;
  files: FileSource;
  /** Public voice-command transcriptions allowed per client IP and minute. */
  voiceCommandsPerMinute: number;
}

const TEXT_BODY_LIMIT = 256 * 1024;

/** The voice assistant's recorder fallback: public, short, rate-limited per client IP. */
export const VOICE_COMMAND_PATH = VOICE_COMMAND.path;
/** The browser records at most 15 s; a little margin for the WAV conversion. */
export const VOICE_COMMAND_MAX_SECONDS = 20;
/** 20 s of 16 kHz 16-bit mono is 640 KB; 48 kHz stereo float would be larger than anything we accept anyway. */
export const VOICE_COMMAND_MAX_BYTES = 1024 * 1024;
export { VOICE_COMMAND_RATE_MESSAGE };

/** Rewords body-too-large errors for the route's input, then answers in the project's error shape. */
export function aiErrorHandler(limits: Record<string, [string, number]>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let appError = toAppError(error);
    const limit = limits[request.routeOptions.url ?? ''];
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && limit) {
      appError = new AppError('PAYLOAD_TOO_LARGE', tooLargeMessage(limit[0], limit[1]));
    }
    if (appError.statusCode >= 500) request.log.error({ err: appError.cause ?? error }, 'request failed');
    else request.log.info({ code: appError.code, statusCode: appError.statusCode }, appError.message);
    return sendError(request, reply, appError);
  };
}

/** Text (JSON { text }) or SSML (application/ssml+xml) from a text-to-speech request. */
export function readSpeechInput(request: FastifyRequest): { text?: string; ssml?: string } {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/ssml+xml') return { ssml: typeof request.body === 'string' ? request.body : '' };
  if (type === 'application/json') {
    const parsed = TextToSpeechRequest.safeParse(request.body);
    if (!parsed.success) throw new AppError('BAD_REQUEST', 'Please send JSON of the form { "text": "…" }.');
    return { text: parsed.data.text };
  }
  if (!type) throw new AppError('BAD_REQUEST', 'Please enter some text to synthesize.');
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Please send JSON { "text": "…" } or application/ssml+xml.');
}

/** /api/ai/*: the four services for signed-in users, their status, and API keys for admins. */
export async function registerAiRoutes(
  app: FastifyInstance,
  { ai, keys, files, voiceCommandsPerMinute, events }: AiRouteDeps,
) {
  const { limits } = ai;
  await app.register(async (scope) => {
    await registerMediaParsers(scope, Math.max(limits.audioBytes, limits.imageBytes));
    scope.setErrorHandler(
      aiErrorHandler({
        [E.speechToText.path]: ['audio file', limits.audioBytes],
        [E.faceDetection.path]: ['image', limits.imageBytes],
        [E.imageAnalysis.path]: ['image', limits.imageBytes],
        [E.textToSpeech.path]: ['text', TEXT_BODY_LIMIT],
        [VOICE_COMMAND.path]: ['voice recording', VOICE_COMMAND_MAX_BYTES],
      }),
    );
    // Access (`config.access`) is enforced by the app-wide hook before any body is read.
    const errors = [400, 401, 413, 415, 503] as const;

    const serve = routesOf(scope, { config: { access: 'user' }, tags: ['ai'] });

    serve(E.speechToText, {
      bodyLimit: limits.audioBytes,
      summary: 'Transcribe a WAV file (body audio/wav, multipart field "file", or ?fileId=)',
      errors,
      handler: async (request) => {
        const user = await request.requireUser();
        const { buffer } = await readUpload(request, { what: 'audio', maxBytes: limits.audioBytes, user, files });
        return ai.transcribe(buffer);
      },
    });

    // The voice assistant works on public pages too, so visitors without a session may send it a
    // short recording (the browser's own recogniser needs the vendor's cloud; this does not).
    serve(VOICE_COMMAND, {
      bodyLimit: VOICE_COMMAND_MAX_BYTES,
      // Counted before the body is read, so a flood over the limit costs no body.
      config: {
        access: 'public',
        rateLimit: {
          name: 'voice-command',
          max: voiceCommandsPerMinute,
          windowMs: 60_000,
          message: VOICE_COMMAND_RATE_MESSAGE,
        },
      },
      summary: `Transcribe a spoken assistant command (body audio/wav, at most ${VOICE_COMMAND_MAX_SECONDS} s; ${voiceCommandsPerMinute} per minute per client)`,
      errors: [400, 413, 415, 429, 503],
      handler: async (request) => {
        const body = request.body;
        if (typeof body === 'string' || request.isMultipart())
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Please send the recording as the request body (audio/wav).');
        if (!Buffer.isBuffer(body) || body.length === 0)
          throw new AppError('BAD_REQUEST', 'The recording is empty. Please try again.');
        return ai.transcribe(body, { maxSeconds: VOICE_COMMAND_MAX_SECONDS });
      },
    });

    // No body or response schema: the answer is audio/mpeg; the body is JSON or SSML (`readSpeechInput`).
    serve(E.textToSpeech, {
      bodyLimit: TEXT_BODY_LIMIT,
      summary: 'Speak text (JSON { text }) or SSML (application/ssml+xml); answers audio/mpeg',
      handler: async (request, reply) => {
        await request.requireUser();
        const audio = await ai.synthesize(readSpeechInput(request));
        return reply.type('audio/mpeg').header('cache-control', 'no-store').send(audio);
      },
    });

    for (const [declared, summary, handler] of [
      [E.faceDetection, 'Detect faces (Azure Face v1.0 shape)', ai.detectFaces],
      [E.imageAnalysis, 'Analyse an image (Computer Vision v3.2 shape)', ai.analyzeImage],
    ] as const) {
      serve(declared, {
        bodyLimit: limits.imageBytes,
        summary: `${summary}: body image/jpeg, image/png or application/octet-stream, multipart "file", or ?fileId=`,
        errors,
        handler: async (request) => {
          const user = await request.requireUser();
          const { buffer } = await readUpload(request, { what: 'image', maxBytes: limits.imageBytes, user, files });
          return handler(buffer);
        },
      });
    }

    serve(E.status, {
      summary: 'Provider and state of each AI service',
      handler: async (request) => {
        await request.requireUser();
        return ai.status();
      },
    });

    serve(E.createKey, {
      config: adminOnly('apiKeys'),
      summary: 'Create an API key for the compatibility endpoints (the key is shown only in this answer)',
      errors: [400],
      handler: async (request, reply) => {
        const admin = await request.requireUser();
        const created = await keys.create(admin, request.body.name, request.body.expiresAt);
        await events.emit(
          'api_key.created',
          changeBy(request, admin, {
            target: `api_key:${created.id}`,
            details: { name: request.body.name, expiresAt: created.expiresAt },
          }),
        );
        return reply.status(E.createKey.status).header('cache-control', 'no-store').send(created);
      },
    });

    serve(E.keys, {
      config: adminOnly('apiKeys'),
      summary: 'List API keys (never the keys themselves)',
      handler: async () => keys.list(),
    });

    serve(E.revokeKey, {
      config: adminOnly('apiKeys'),
      summary: 'Revoke an API key',
      errors: [404],
      handler: async (request) => {
        const admin = await request.requireUser();
        const revoked = await keys.revoke(request.params.id);
        await events.emit('api_key.revoked', changeBy(request, admin, { target: `api_key:${revoked.id}` }));
        return revoked;
      },
    });
  });
}
