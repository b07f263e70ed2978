// The endpoints the public pages call (the shared-link page, the voice assistant), zod-free
// (`@atrium/contracts/public-endpoints`): their method and path only, so a page without sign-in loads no schema. The
// endpoint table (`ENDPOINTS`: sharing.ts, ai.ts) declares them with their schemas by spreading these, so each method and
// path is still written once.

import type { Endpoint } from './endpoint';

export const PUBLIC_ENDPOINTS = {
  assistant: {
    voiceCommand: { method: 'POST', path: '/api/assistant/voice-command' },
  },
  publicLinks: {
    link: { method: 'GET', path: '/api/public/links/:token' },
    download: { method: 'GET', path: '/api/public/links/:token/download' },
    fileDownload: { method: 'GET', path: '/api/public/links/:token/files/:fileId/download' },
    thumbnail: { method: 'GET', path: '/api/public/links/:token/thumbnail' },
    fileThumbnail: { method: 'GET', path: '/api/public/links/:token/files/:fileId/thumbnail' },
    zip: { method: 'GET', path: '/api/public/links/:token/zip' },
    unlock: { method: 'POST', path: '/api/public/links/:token/unlock' },
    upload: { method: 'POST', path: '/api/public/links/:token/upload' },
  },
  /** The invitation and password reset pages (docs/PRODUCT.md#invitations). */
  accounts: {
    publicInvitation: { method: 'GET', path: '/api/public/invitations/:token' },
    accept: { method: 'POST', path: '/api/public/invitations/:token/accept' },
    resetInfo: { method: 'GET', path: '/api/public/password-reset/:token' },
    reset: { method: 'POST', path: '/api/public/password-reset/:token' },
    signUpInfo: { method: 'GET', path: '/api/public/signup' },
    signUp: { method: 'POST', path: '/api/public/signup' },
  },
} as const satisfies Record<string, Record<string, Pick<Endpoint, 'method' | 'path'>>>;
