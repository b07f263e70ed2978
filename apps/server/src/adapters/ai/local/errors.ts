/**
 * Typed errors of the local AI engines.
 *
 * Every error has a stable `code` (safe to switch on and to return to API
 * clients) and a human-readable message. `httpStatus` is a suggestion for the
 * HTTP adapter that maps these errors to responses.
 *
 * Errors cross the worker-thread boundary as `{ code, message }` and are
 * rebuilt on the main thread with `errorFromCode()`.
 */

export type AiErrorCode =
  | 'BAD_INPUT'
  | 'BAD_MEDIA'
  | 'UNSUPPORTED_MEDIA'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'QUEUE_FULL'
  | 'ENGINE_UNAVAILABLE'
  | 'ENGINE_FAILED';

export abstract class AiEngineError extends Error {
  abstract readonly code: AiErrorCode;
  abstract readonly httpStatus: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  toJSON(): { code: AiErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** The request itself is invalid (blank text, both text and SSML, malformed SSML…). */
export class BadInputError extends AiEngineError {
  readonly code = 'BAD_INPUT' as const;
  readonly httpStatus = 400;
}

/** The media claims to be a supported format but cannot be decoded (corrupt, truncated, empty). */
export class BadMediaError extends AiEngineError {
  readonly code = 'BAD_MEDIA' as const;
  readonly httpStatus = 400;
}

/** The media is of a format this engine does not accept (e.g. GIF for face detection). */
export class UnsupportedMediaError extends AiEngineError {
  readonly code = 'UNSUPPORTED_MEDIA' as const;
  readonly httpStatus = 415;
}

/** The input exceeds a configured limit (bytes, pixels, seconds, characters). */
export class TooLargeError extends AiEngineError {
  readonly code = 'TOO_LARGE' as const;
  readonly httpStatus = 413;
}

/** The job did not finish within its time limit; the worker was killed and restarted. */
export class TimeoutError extends AiEngineError {
  readonly code = 'TIMEOUT' as const;
  readonly httpStatus = 504;
}

/** Too many jobs are waiting for this engine; try again later. */
export class QueueFullError extends AiEngineError {
  readonly code = 'QUEUE_FULL' as const;
  readonly httpStatus = 503;
}

/** The engine cannot run on this machine (missing Debian package, missing npm package, engine closed). */
export class EngineUnavailableError extends AiEngineError {
  readonly code = 'ENGINE_UNAVAILABLE' as const;
  readonly httpStatus = 503;
}

/** The engine failed unexpectedly (worker crashed, child process failed). */
export class EngineFailedError extends AiEngineError {
  readonly code = 'ENGINE_FAILED' as const;
  readonly httpStatus = 500;
}

export interface SerializedError {
  code: string;
  message: string;
}

const constructors: Record<AiErrorCode, new (message: string) => AiEngineError> = {
  BAD_INPUT: BadInputError,
  BAD_MEDIA: BadMediaError,
  UNSUPPORTED_MEDIA: UnsupportedMediaError,
  TOO_LARGE: TooLargeError,
  TIMEOUT: TimeoutError,
  QUEUE_FULL: QueueFullError,
  ENGINE_UNAVAILABLE: EngineUnavailableError,
  ENGINE_FAILED: EngineFailedError,
};

function isAiErrorCode(code: string): code is AiErrorCode {
  return Object.prototype.hasOwnProperty.call(constructors, code);
}

/** Turn any thrown value into a `{ code, message }` that can be posted between threads. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof AiEngineError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'ENGINE_FAILED', message: error.message };
  return { code: 'ENGINE_FAILED', message: String(error) };
}

/** Rebuild a typed error from its serialized form (unknown codes become EngineFailedError). */
export function errorFromCode(serialized: SerializedError): AiEngineError {
  const Ctor = isAiErrorCode(serialized.code) ? constructors[serialized.code] : EngineFailedError;
  return new Ctor(serialized.message);
}
