import { z } from 'zod';
import { SESSION_END_REASONS } from './texts';

/**
 * Stable error codes and the HTTP status each one maps to. Clients switch on
 * the code, never on the message. Add new codes here; the server and the web
 * app both import this table.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INVALID_MEDIA: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  /** The password was right; a second factor must follow (`POST /api/auth/login/totp`, docs/PRODUCT.md#second-factors). */
  SECOND_FACTOR_REQUIRED: 401,
  /** The password was right; the admin policy requires a second factor this person has not set up yet. */
  SECOND_FACTOR_ENROLMENT_REQUIRED: 401,
  /** A pending second-factor sign-in that expired, was used up or never started: enter the password again. */
  SIGN_IN_EXPIRED: 401,
  /** A wrong, expired or replayed authenticator or recovery code. */
  INVALID_CODE: 400,
  FORBIDDEN: 403,
  CSRF_REJECTED: 403,
  /** A same-origin browser request to an address other than PUBLIC_URL (details name both). */
  PUBLIC_URL_MISMATCH: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  FOLDER_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  /** A public link that does not exist or was revoked (the page says it is no longer available). */
  LINK_NOT_FOUND: 404,
  /** A password-protected public link not unlocked by this browser yet. */
  LINK_LOCKED: 401,
  /** A public link past its expiry date. */
  LINK_EXPIRED: 410,
  /** A public link that reached its download limit. */
  LINK_USED_UP: 410,
  /** An invitation link nobody made (or mistyped). */
  INVITATION_NOT_FOUND: 404,
  /** An invitation already accepted. */
  INVITATION_USED: 410,
  /** An invitation its inviter or an admin revoked. */
  INVITATION_REVOKED: 410,
  /** An invitation past its expiry. */
  INVITATION_EXPIRED: 410,
  /** An invitation to a workspace that was deleted since. */
  INVITATION_WORKSPACE_GONE: 410,
  /** A password reset link that is unknown, used or expired. */
  RESET_LINK_GONE: 410,
  /** A new password too short or on the common-password list. */
  WEAK_PASSWORD: 400,
  /** A username (or an email of a local account) someone already has. */
  USERNAME_TAKEN: 409,
  /** Self-sign-up is closed on this instance (no email domains, or no email to verify addresses). */
  SIGN_UP_CLOSED: 403,
  /** Self-sign-up is open, but not to this address's email domain. */
  SIGN_UP_DOMAIN_NOT_ALLOWED: 403,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** A folder created with `onConflict: 'fail'` under a name its parent already has. */
  NAME_TAKEN: 409,
  /** A WebDAV precondition (`Overwrite: F` meeting a target, an `If` header that does not match). */
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  /** A WebDAV lock held by someone else (modules/dav). */
  LOCKED: 423,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  UPSTREAM_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  TIMEOUT: 504,
  /** WebDAV's answer to a full quota (modules/dav; the app says QUOTA_EXCEEDED). */
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** The one JSON shape every 4xx and 5xx answer has. */
export const ErrorResponse = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine-readable code, e.g. FILE_NOT_FOUND'),
      message: z.string().describe('Human-readable explanation, safe to show to users'),
      requestId: z.string().optional().describe('Correlates with server logs'),
      details: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .describe('Field-level problems for VALIDATION_FAILED'),
      reason: z
        .enum(SESSION_END_REASONS)
        .optional()
        .describe('For UNAUTHENTICATED: why there is no session (signed_out, expired, disabled, missing)'),
    }),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
