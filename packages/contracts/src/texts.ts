// Texts and constants that the server and the web both use, in one place. zod-free, so the prerendered public
// pages can import them without loading any schema (`@atrium/contracts/texts`).

/** The admin sign-in's refusal (docs/PRODUCT.md#sign-in-messages). */
export const invalidCredentialsMessage = (providerName: string) =>
  `Invalid credentials. Please try again or continue with ${providerName}`;

/** The public voice command route's 429, which the assistant shows as it is (docs/PRODUCT.md). */
export const VOICE_COMMAND_RATE_MESSAGE = 'Too many voice commands. Please wait a minute and try again.';

/** The content types the server makes thumbnails of (`GET /api/files/{id}/thumbnail`). */
export const THUMBNAIL_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
];

/**
 * The image content types the server analyses (text in images, captions, faces for People): the one list the
 * background analysis picks images by and turning People on analyses a space's photos again by.
 */
export const IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
  'image/tiff',
  'image/gif',
];

/** PDFs: the server makes a thumbnail of the first page when poppler-utils is installed. */
export const PAGE_THUMBNAIL_TYPES: readonly string[] = ['application/pdf'];

/** Videos: the server makes a thumbnail of a poster frame when ffmpeg is installed. */
export const VIDEO_THUMBNAIL_TYPES: readonly string[] = [
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'video/x-matroska',
  'video/ogg',
  'video/x-m4v',
  'video/mpeg',
  'video/3gpp',
  'video/vnd.avi',
];

/**
 * Every content type `GET /api/files/{id}/thumbnail` may answer for: images, PDFs and videos. The one list the web's
 * grid asks by (for a PDF or a video the answer is 404 on a server without the engine: the grid shows an icon).
 */
export const ALL_THUMBNAIL_TYPES: readonly string[] = [
  ...THUMBNAIL_TYPES,
  ...PAGE_THUMBNAIL_TYPES,
  ...VIDEO_THUMBNAIL_TYPES,
];

/** The message of a thumbnail that cannot be made (a kind of file without one, or its engine not installed). */
export const NO_THUMBNAIL_MESSAGE = 'There is no thumbnail for this kind of file.';

/** What the web says when a request could not reach the server at all. */
export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Please check your connection.';

/** What the public link page and the server say of links (the server's error messages are these texts). */
export const LINK_TEXTS = {
  expired: 'This link has expired.',
  revoked: 'This link is no longer available.',
  usedUp: 'This link has reached its download limit.',
  wrongPassword: 'Wrong password.',
  locked: 'This link is protected by a password.',
  tooManyAttempts: 'Too many wrong passwords for this link. Please wait 15 minutes and try again.',
  tooManyRequests: 'Too many requests for shared links. Please wait a minute and try again.',
  uploadOnly: 'This link only accepts uploads: its folder cannot be listed or downloaded.',
  notUploadLink: 'This link does not accept uploads.',
  notInFolder: 'That file is not in the shared folder.',
} as const;

/** Why a disabled account cannot sign in (the OIDC callback's `/login?error=account_disabled`, the admin sign-in). */
export const ACCOUNT_DISABLED_MESSAGE = 'Your account has been disabled. Ask an admin to enable it.';

/**
 * Why a request has no session: the `reason` of a 401 `UNAUTHENTICATED` answer, and the sentence the sign-in page
 * shows for it (docs/PRODUCT.md#session-end-reasons).
 */
export const SESSION_END_REASONS = ['signed_out', 'expired', 'disabled', 'missing'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];
export const SESSION_END_MESSAGES: Record<SessionEndReason, string> = {
  signed_out: 'You were signed out on another device or by an admin. Please sign in again.',
  expired: 'Your session expired. Please sign in again.',
  disabled: ACCOUNT_DISABLED_MESSAGE,
  missing: 'Please sign in to continue.',
};
export const isSessionEndReason = (value: unknown): value is SessionEndReason =>
  typeof value === 'string' && (SESSION_END_REASONS as readonly string[]).includes(value);

/** Invitations and local accounts (docs/PRODUCT.md#invitations): what the invitation and reset pages show. */
export const ACCOUNT_TEXTS = {
  invitationNotFound: 'This invitation link is not valid. Check that you copied all of it.',
  invitationUsed: 'This invitation was already used. Sign in with the account it created.',
  invitationRevoked: 'This invitation was withdrawn. Ask the person who invited you for a new one.',
  invitationExpired: 'This invitation has expired. Ask the person who invited you for a new one.',
  invitationWorkspaceGone: 'The workspace this invitation was for no longer exists.',
  resetLinkGone: 'This password reset link is not valid any more. Ask for a new one.',
  passwordTooShort: 'Use at least 12 characters.',
  passwordCommon: 'This password is too common. Choose one that is harder to guess.',
  usernameTaken: 'This username is taken. Choose another one.',
  emailTaken: 'An account with this email address already exists.',
  wrongCurrentPassword: 'Your current password is not correct.',
  notLocalAccount: 'Your account signs in with the identity provider; it has no password here.',
  resetRequested: 'If an account has this email address, a link to set a new password is on its way.',
  invitingNotAllowed: 'Only admins may invite people on this instance.',
  signUpClosed: 'Sign-up is closed on this server. Ask an admin for an invitation.',
  signUpRequested:
    'Check your email: if this address can have an account here, a link to create it is on its way. The link is ' +
    'valid for a day.',
} as const;

/** Self-sign-up refuses an address outside the admin's domains, and says which ones are open. */
export const signUpDomainMessage = (domains: readonly string[]) =>
  `Sign-up here is open only to email addresses at ${domains.join(', ')}.`;

/** The shortest password a local account may have. */
export const PASSWORD_MIN_LENGTH = 12;
