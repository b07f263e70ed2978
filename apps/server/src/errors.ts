import { ERROR_STATUS, type ErrorCode } from '@atrium/contracts';
import type { SessionEndReason } from '@atrium/contracts/texts';

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'The request is not valid.',
  VALIDATION_FAILED: 'The request is not valid.',
  INVALID_JSON: 'The request body is not valid JSON.',
  INVALID_MEDIA: 'The file could not be read. It may be damaged.',
  NOT_IMPLEMENTED: 'This is not available on this server.',
  UNAUTHENTICATED: 'Please sign in to continue.',
  FORBIDDEN: 'You do not have permission to do that.',
  CSRF_REJECTED: 'Cross-site request refused.',
  NOT_FOUND: 'Not found.',
  ROUTE_NOT_FOUND: 'There is no such API route.',
  FILE_NOT_FOUND: 'File not found',
  WORKSPACE_NOT_FOUND: 'Workspace not found.',
  FOLDER_NOT_FOUND: 'Folder not found.',
  USER_NOT_FOUND: 'No one with that id has signed in.',
  METHOD_NOT_ALLOWED: 'Method not allowed.',
  REQUEST_TIMEOUT: 'The request body stopped arriving. Please try again.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported content type.',
  RATE_LIMITED: 'Too many requests. Please try again later.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  UPSTREAM_FAILED: 'The AI provider did not answer as expected. Please try again.',
  SERVICE_UNAVAILABLE: 'The service is not available right now.',
  TIMEOUT: 'The operation took too long.',
};

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The one error type services throw. Its code decides the HTTP status
 * (see ERROR_STATUS in @atrium/contracts); its message is shown to users.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** For `UNAUTHENTICATED`: why there is no session (the answer's `error.reason`). */
  readonly reason: SessionEndReason | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options: {
      details?: ErrorDetail[];
      headers?: Record<string, string>;
      cause?: unknown;
      reason?: SessionEndReason;
    } = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[code] ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers;
    this.reason = options.reason;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
