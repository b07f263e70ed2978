import type { AiServiceName } from '@atrium/contracts';
import { AppError } from '../../errors';

/** The Debian package each local engine needs, named in 503 answers. */
export const DEBIAN_PACKAGES: Record<AiServiceName, string | undefined> = {
  speechToText: 'pocketsphinx-en-us',
  textToSpeech: 'flite lame',
  faceDetection: undefined,
  imageAnalysis: undefined,
};

const SERVICE_LABEL: Record<AiServiceName, string> = {
  speechToText: 'Speech to text',
  textToSpeech: 'Text to speech',
  faceDetection: 'Face detection',
  imageAnalysis: 'Image analysis',
};

export const serviceLabel = (service: AiServiceName) => SERVICE_LABEL[service];

/**
 * Maps the typed errors of the local engines (by their `code`, so it works
 * across module copies and worker boundaries) and of the remote providers to
 * AppError. Anything unknown becomes an INTERNAL error, logged by the error handler.
 */
export function toAiAppError(error: unknown, service: AiServiceName): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'BAD_INPUT':
      return new AppError('BAD_REQUEST', message, { cause: error });
    case 'BAD_MEDIA':
      return new AppError('INVALID_MEDIA', message, { cause: error });
    case 'UNSUPPORTED_MEDIA':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', message, { cause: error });
    case 'TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', message, { cause: error });
    case 'TIMEOUT':
      return new AppError('TIMEOUT', `${SERVICE_LABEL[service]} took too long. Please try a shorter input.`, {
        cause: error,
      });
    case 'QUEUE_FULL':
      return new AppError('SERVICE_UNAVAILABLE', `${SERVICE_LABEL[service]} is busy. Please try again in a moment.`, {
        headers: { 'retry-after': '5' },
        cause: error,
      });
    case 'ENGINE_UNAVAILABLE':
      return new AppError('SERVICE_UNAVAILABLE', unavailableMessage(service, message), { cause: error });
    default:
      return new AppError('INTERNAL', undefined, { cause: error });
  }
}

/** "Speech to text is not available: … Install the Debian package pocketsphinx-en-us …". */
export function unavailableMessage(service: AiServiceName, reason: string): string {
  const pkg = DEBIAN_PACKAGES[service];
  const hint = pkg && !reason.includes(pkg) ? ` Install the Debian package ${pkg} (apt-get install ${pkg}).` : '';
  return `${SERVICE_LABEL[service]} is not available on this server: ${reason.replace(/\.?$/, '.')}${hint}`;
}
