import { z } from 'zod';

export const LoginRequest = z
  .object({
    username: z.string().trim().min(1, 'Username is required').max(200),
    password: z.string().min(1, 'Password is required').max(1000),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const OkResponse = z.object({ ok: z.literal(true) }).meta({ id: 'OkResponse' });
export type OkResponse = z.infer<typeof OkResponse>;

/** POST /api/auth/logout: the browser then goes to redirectTo (the identity provider's logout, or the site origin). */
export const LogoutResponse = z.object({ ok: z.literal(true), redirectTo: z.string() }).meta({ id: 'LogoutResponse' });
export type LogoutResponse = z.infer<typeof LogoutResponse>;
