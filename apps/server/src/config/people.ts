import { z } from 'zod';
import { documented } from './env';

// People without an identity provider: invitations and email.

export const peopleEnv = {
  INVITE_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(7).describe('days an invitation link stays valid'),
  SMTP_URL: documented(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    '`smtp://user:pass@host:587` or `smtps://…`: send invitations, password resets and the notices people opt in to by email (nodemailer)',
    'unset (no email: invitation links are shown to copy)',
  ),
  MAIL_FROM: documented(
    z.string().min(3).optional(),
    'sender of the emails, e.g. `Atrium <atrium@example.com>`',
    '`Atrium <atrium@` + the host of `PUBLIC_URL` + `>`',
  ),
};

type PeopleEnv = z.infer<z.ZodObject<typeof peopleEnv>>;

/** Email: undefined when `SMTP_URL` is unset (nothing is sent; links are shown to copy). */
export type MailConfig = { smtpUrl: string; from: string } | undefined;

export const resolveMail = (env: PeopleEnv, publicUrl: string): MailConfig =>
  env.SMTP_URL
    ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? `Atrium <atrium@${new URL(publicUrl).hostname}>` }
    : undefined;
