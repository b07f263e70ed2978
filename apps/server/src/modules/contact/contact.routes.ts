import { adminOnly } from '../../auth/policies/admin';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import type { ContactService } from './contact.service';
import { routesOf } from '../../plugins/route';

const E = ENDPOINTS.contact;

/** The contact form's limit: messages accepted per sender address and hour. */
const CONTACT_WINDOW_MS = 60 * 60 * 1000;

export function registerContactRoutes(app: FastifyInstance, deps: { contact: ContactService; maxPerHour: number }) {
  const serve = routesOf(app, { config: adminOnly('contactMessages'), tags: ['contact'] });

  serve(E.submit, {
    // Messages accepted (not attempts) count; a sender at the limit is refused before its body is read.
    config: {
      access: 'public',
      rateLimit: {
        name: 'contact',
        max: deps.maxPerHour,
        windowMs: CONTACT_WINDOW_MS,
        message: 'You have sent several messages already. Please try again later.',
        count: 'success',
      },
    },
    summary: 'Send a message through the contact form',
    errors: [400, 429],
    handler: async (request, reply) => {
      const created = await deps.contact.submit(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(E.submit.status).send(created);
    },
  });

  serve(E.messages, {
    summary: 'Contact messages, newest first (admins)',
    handler: async () => deps.contact.list(),
  });

  serve(E.unreadCount, {
    summary: 'How many contact messages no admin has read yet (admins)',
    handler: async () => ({ unread: await deps.contact.unreadCount() }),
  });

  serve(E.updateMessage, {
    summary: 'Mark a contact message read/unread or handled (admins)',
    errors: [400, 404],
    handler: async (request) => deps.contact.update(request.params.id, request.body),
  });

  serve(E.deleteMessage, {
    summary: 'Delete a contact message (admins)',
    errors: [404],
    handler: async (request) => {
      await deps.contact.remove(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });
}
