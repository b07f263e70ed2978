import { z } from 'zod';

/** POST /api/contact: a message from the public contact form (docs/PRODUCT.md#contact). */
export const ContactRequest = z
  .object({
    name: z.string().trim().min(1, 'Please enter your name.').max(200, 'Please keep your name under 200 characters.'),
    email: z
      .string()
      .trim()
      .min(1, 'Please enter your email address.')
      .max(320, 'Please keep your email under 320 characters.')
      .pipe(z.email('Please enter a valid email address.')),
    message: z
      .string()
      .trim()
      .min(1, 'Please enter a message.')
      .max(5000, 'Please keep your message under 5000 characters.'),
  })
  .meta({ id: 'ContactRequest' });
export type ContactRequest = z.infer<typeof ContactRequest>;

export const ContactCreated = z
  .object({ id: z.string(), createdAt: z.string().describe('ISO-8601') })
  .meta({ id: 'ContactCreated' });
export type ContactCreated = z.infer<typeof ContactCreated>;

/** A stored contact message, as an admin reads it. */
export const ContactMessage = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    message: z.string(),
    createdAt: z.string().describe('ISO-8601'),
  })
  .meta({ id: 'ContactMessage' });
export type ContactMessage = z.infer<typeof ContactMessage>;

/** GET /api/contact (admins): newest first. */
export const ContactMessageList = z.array(ContactMessage).meta({ id: 'ContactMessageList' });
export type ContactMessageList = z.infer<typeof ContactMessageList>;
