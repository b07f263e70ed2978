import { z } from 'zod';
import { endpoint } from './endpoint';

/** What an unsubscribe link turns off: share notices, membership notices, the daily digest. */
export const EmailKind = z.enum(['share', 'member', 'digest']);
export type EmailKind = z.infer<typeof EmailKind>;

/** `GET /api/me/email-preferences`: the signed-in person's email opt-in (docs/PRODUCT.md#email). */
export const EmailPreferences = z
  .object({
    available: z.boolean().describe('Whether this server sends email (`SMTP_URL` set)'),
    address: z.string().nullable().describe('The address emails go to; null: the account has none'),
    shareNotices: z.boolean().describe('An email when something is shared with the person'),
    memberNotices: z.boolean().describe('An email when the person is added to a workspace'),
    dailyDigest: z.boolean().describe('A daily email of unread notifications'),
  })
  .meta({ id: 'EmailPreferences' });
export type EmailPreferences = z.infer<typeof EmailPreferences>;

/** `PUT /api/me/email-preferences`: the choices to change (others keep their value). */
export const EmailPreferencesPatch = z
  .strictObject({
    shareNotices: z.boolean().optional(),
    memberNotices: z.boolean().optional(),
    dailyDigest: z.boolean().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'Name at least one email preference to change.',
  })
  .meta({ id: 'EmailPreferencesPatch' });
export type EmailPreferencesPatch = z.infer<typeof EmailPreferencesPatch>;

/** The signed unsubscribe link's query: the person, the kind, and the HMAC that proves the link came from us. */
export const UnsubscribeQuery = z.strictObject({
  u: z.string().min(1).max(100),
  k: EmailKind,
  t: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe('HMAC-SHA256 of the person and kind, base64url'),
});
export type UnsubscribeQuery = z.infer<typeof UnsubscribeQuery>;

export const UnsubscribeResult = z.object({ kind: EmailKind, unsubscribed: z.literal(true) }).meta({
  id: 'UnsubscribeResult',
});

/** The email endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const mailEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/me/email-preferences', response: EmailPreferences }),
  update: endpoint({
    method: 'PUT',
    path: '/api/me/email-preferences',
    body: EmailPreferencesPatch,
    response: EmailPreferences,
  }),
  /** The link in an email: turns the kind off and answers a small HTML page (no sign-in). */
  unsubscribe: endpoint({ method: 'GET', path: '/api/public/unsubscribe', query: UnsubscribeQuery }),
  /** RFC 8058 one-click (`List-Unsubscribe-Post`): the mail client posts to the same link. */
  unsubscribeOneClick: endpoint({
    method: 'POST',
    path: '/api/public/unsubscribe',
    query: UnsubscribeQuery,
    response: UnsubscribeResult,
  }),
} as const;
