import { z } from 'zod';
import { endpoint } from './endpoint';

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
    readAt: z.string().nullable().describe('When an admin marked it read (ISO-8601), or null while unread'),
    handledAt: z.string().nullable().describe('When an admin marked it handled (ISO-8601), or null'),
  })
  .meta({ id: 'ContactMessage' });
export type ContactMessage = z.infer<typeof ContactMessage>;

/** GET /api/contact (admins): newest first. */
export const ContactMessageList = z.array(ContactMessage).meta({ id: 'ContactMessageList' });
export type ContactMessageList = z.infer<typeof ContactMessageList>;

/** PATCH /api/contact/{id} (admins): mark a message read/unread and handled/not handled. */
export const ContactMessagePatch = z
  .strictObject({ read: z.boolean().optional(), handled: z.boolean().optional() })
  .refine((patch) => patch.read !== undefined || patch.handled !== undefined, {
    message: 'Say what to change: read, handled or both.',
  })
  .meta({ id: 'ContactMessagePatch' });
export type ContactMessagePatch = z.infer<typeof ContactMessagePatch>;

export const ContactMessageIdParams = z.object({ id: z.string().min(1).max(100) });

/** DELETE /api/contact/{id} (admins). */
export const ContactMessageDeleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'ContactMessageDeleted' });
export type ContactMessageDeleted = z.infer<typeof ContactMessageDeleted>;

/** GET /api/contact/unread-count (admins): messages no admin has read yet (the sidebar's badge). */
export const ContactUnreadCount = z
  .object({ unread: z.number().int().nonnegative() })
  .meta({ id: 'ContactUnreadCount' });
export type ContactUnreadCount = z.infer<typeof ContactUnreadCount>;

/** What the admin Messages screen says (docs/PRODUCT.md#admin-console-api-keys-and-messages). */
export const CONTACT_ADMIN_TEXTS = {
  notFound: 'There is no such message.',
  deleteConfirm: 'Delete this message? This cannot be undone.',
  empty: 'No messages yet. Messages sent through the contact form appear here.',
} as const;

/** The contact endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const contactEndpoints = {
  submit: endpoint({
    method: 'POST',
    path: '/api/contact',
    body: ContactRequest,
    response: ContactCreated,
    status: 201,
  }),
  messages: endpoint({ method: 'GET', path: '/api/contact', response: ContactMessageList }),
  unreadCount: endpoint({ method: 'GET', path: '/api/contact/unread-count', response: ContactUnreadCount }),
  updateMessage: endpoint({
    method: 'PATCH',
    path: '/api/contact/:id',
    params: ContactMessageIdParams,
    body: ContactMessagePatch,
    response: ContactMessage,
  }),
  deleteMessage: endpoint({
    method: 'DELETE',
    path: '/api/contact/:id',
    params: ContactMessageIdParams,
    response: ContactMessageDeleted,
  }),
} as const;
