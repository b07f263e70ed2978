import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * App passwords (docs/PRODUCT.md#app-passwords): one secret per program or device (a file manager, rclone, a phone)
 * that signs in to WebDAV with HTTP Basic instead of the account's own sign-in. Shown once, stored as a hash.
 */
export const AppPasswordRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string().describe('ISO-8601'),
    lastUsedAt: z.string().nullable().describe('When a program last signed in with it (ISO-8601), or null: never'),
    lastUsedIp: z.string().nullable().describe('The address it was last used from'),
  })
  .meta({ id: 'AppPasswordRecord' });
export type AppPasswordRecord = z.infer<typeof AppPasswordRecord>;

export const AppPasswordList = z.array(AppPasswordRecord).meta({ id: 'AppPasswordList' });
export type AppPasswordList = z.infer<typeof AppPasswordList>;

/** An app password in the admin list: whose it is too. */
export const AdminAppPasswordRecord = AppPasswordRecord.extend({
  ownerKey: z.string().describe("The owner's owner key (the WebDAV login name)"),
}).meta({ id: 'AdminAppPasswordRecord' });
export type AdminAppPasswordRecord = z.infer<typeof AdminAppPasswordRecord>;

export const AdminAppPasswordList = z.array(AdminAppPasswordRecord).meta({ id: 'AdminAppPasswordList' });

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

/** What the profile's app passwords section and the API say. */
export const APP_PASSWORD_TEXTS = {
  title: 'App passwords',
  intro: 'Programs and phones that connect with WebDAV sign in with an app password, never your own sign-in.',
  shownOnce: 'Copy this password now: you will not see it again.',
  revokeConfirm: 'Revoke this app password? Programs using it stop working at once.',
  empty: 'No app passwords yet.',
  notFound: 'There is no such app password.',
  neverUsed: 'Never used',
} as const;

/** The app passwords endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const appPasswordsEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/api/me/app-passwords',
    status: 201,
    body: CreateAppPasswordRequest,
    response: CreatedAppPassword,
  }),
  list: endpoint({ method: 'GET', path: '/api/me/app-passwords', response: AppPasswordList }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/api/me/app-passwords/:id',
    params: AppPasswordIdParams,
    response: AppPasswordRecord,
  }),
  adminList: endpoint({ method: 'GET', path: '/api/admin/app-passwords', response: AdminAppPasswordList }),
  adminRevoke: endpoint({
    method: 'DELETE',
    path: '/api/admin/app-passwords/:id',
    params: AppPasswordIdParams,
    response: AdminAppPasswordRecord,
  }),
} as const;
