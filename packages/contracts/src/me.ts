import { z } from 'zod';

export const Role = z.enum(['user', 'admin']);
export type Role = z.infer<typeof Role>;

/** The signed-in user as the browser sees it (GET /api/me). */
export const MeResponse = z
  .object({
    id: z.string(),
    ownerKey: z.string().describe('The {userId} used in file and notification paths'),
    name: z.string().nullable(),
    nickname: z.string().nullable(),
    email: z.string().nullable(),
    picture: z.string().nullable(),
    role: Role,
    isAdmin: z.boolean(),
    localAccount: z
      .boolean()
      .optional()
      .describe('True for a local account (it has a password here: the profile offers to change it)'),
    firstLogin: z
      .boolean()
      .describe(
        "True until the user's first sign-in has been greeted (`POST /api/me/first-login`), in any browser: " +
          'the client then shows the greeting and subscribes to notifications',
      ),
  })
  .meta({ id: 'Me' });
export type MeResponse = z.infer<typeof MeResponse>;
