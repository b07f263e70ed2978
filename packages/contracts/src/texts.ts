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
