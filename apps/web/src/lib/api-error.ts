// Kept free of zod so that code on public pages can check errors without loading schemas.
/** A failed API call: the server's stable code and human message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
    /** For `UNAUTHENTICATED`: why there is no session (docs/PRODUCT.md#session-end-reasons). */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The server's error shape (`{ error: { code, message, details? } }`), read without zod. */
function errorBody(
  value: unknown,
): { code: string; message: string; details?: ApiError['details']; reason?: string } | undefined {
  if (typeof value !== 'object' || value === null || !('error' in value)) return undefined;
  const error: unknown = value.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, details, reason } = error as {
    code?: unknown;
    message?: unknown;
    details?: unknown;
    reason?: unknown;
  };
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return {
    code,
    message,
    ...(Array.isArray(details) ? { details: details as ApiError['details'] } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
  };
}

/**
 * The one reader of a failed answer's body, for fetch, XHR and blob answers alike: the server's code, message and
 * details when the body is the project's error shape, else `HTTP_ERROR` with the body's text or `fallback`.
 */
export function apiErrorFrom(status: number, bodyText: string, fallback = `Request failed with status ${status}`) {
  let parsed: ReturnType<typeof errorBody>;
  try {
    parsed = errorBody(JSON.parse(bodyText));
  } catch {
    // not JSON
  }
  if (parsed) return new ApiError(status, parsed.code, parsed.message, parsed.details, parsed.reason);
  const text = bodyText.trim();
  return new ApiError(status, 'HTTP_ERROR', text && !text.startsWith('<') && text.length < 300 ? text : fallback);
}

/**
 * What to show a person for a failed request: the field messages when the server listed them (a form's
 * validation: "Give the workspace a name."), else the error's message. Undefined for no error.
 */
export function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined) return undefined;
  if (isApiError(error) && error.details && error.details.length > 0) {
    return [...new Set(error.details.map((detail) => detail.message))].join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}
