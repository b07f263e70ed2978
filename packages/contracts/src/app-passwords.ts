import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * App passwords (docs/PRODUCT.md#app-passwords): per-person secrets for WebDAV and desktop/phone clients, sent with
 * HTTP Basic (user name: the person's owner key). Shown once, stored hashed, revocable.
 */
export const AppPasswordRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    ownerKey: z.string().describe('The owner key of the person the password signs in as (the DAV user name)'),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    lastUsedIp: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'AppPasswordRecord' });
export type AppPasswordRecord = z.infer<typeof AppPasswordRecord>;

export const AppPasswordList = z.array(AppPasswordRecord).meta({ id: 'AppPasswordList' });
export type AppPasswordList = z.infer<typeof AppPasswordList>;

export const CreateAppPasswordRequest = z
  .strictObject({ name: z.string().trim().min(1, 'Please name the app password.').max(100) })
  .meta({ id: 'CreateAppPasswordRequest' });
export type CreateAppPasswordRequest = z.infer<typeof CreateAppPasswordRequest>;

export const CreatedAppPassword = z
  .object({
    id: z.string(),
    name: z.string(),
    password: z.string().describe('The secret. Shown only in this answer; only its hash is stored.'),
  })
  .meta({ id: 'CreatedAppPassword' });
export type CreatedAppPassword = z.infer<typeof CreatedAppPassword>;

export const AppPasswordIdParams = z.object({ id: z.string().min(1).max(100) });

/** What the app-password screens and the API say. */
export const APP_PASSWORD_TEXTS = {
  notFound: 'There is no such app password.',
  shownOnce: 'Copy this password now: you will not see it again.',
  revokeConfirm: 'Revoke this app password? Apps using it stop working at once.',
  empty: 'No app passwords yet.',
  tooMany: 'Too many failed attempts with an app password. Please try again later.',
} as const;

/** The app-password endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const appPasswordsEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/api/me/app-passwords',
    body: CreateAppPasswordRequest,
    response: CreatedAppPassword,
    status: 201,
  }),
  list: endpoint({ method: 'GET', path: '/api/me/app-passwords', response: AppPasswordList }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/api/me/app-passwords/:id',
    params: AppPasswordIdParams,
    response: AppPasswordRecord,
  }),
  adminList: endpoint({ method: 'GET', path: '/api/admin/app-passwords', response: AppPasswordList }),
  adminRevoke: endpoint({
    method: 'DELETE',
    path: '/api/admin/app-passwords/:id',
    params: AppPasswordIdParams,
    response: AppPasswordRecord,
  }),
} as const;
