import { adminOnly } from '../../auth/policies/admin';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { ContactService } from './contact.service';

const E = ENDPOINTS.contact;

/** The contact form's limit: messages accepted per sender address and hour. */
const CONTACT_WINDOW_MS = 60 * 60 * 1000;

export function registerContactRoutes(app: FastifyInstance, deps: { contact: ContactService; maxPerHour: number }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.route({
    method: E.submit.method,
    url: E.submit.path, // Messages accepted (not attempts) count; a sender at the limit is refused before its body is read.
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
    schema: {
      tags: ['contact'],
      summary: 'Send a message through the contact form',
      body: E.submit.body,
      response: { [E.submit.status]: E.submit.response, 400: ErrorResponse, 429: ErrorResponse },
    },
    handler: async (request, reply) => {
      const created = await deps.contact.submit(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(E.submit.status).send(created);
    },
  });

  typed.route({
    method: E.messages.method,
    url: E.messages.path,
    config: adminOnly('contactMessages'),
    schema: {
      tags: ['contact'],
      summary: 'Contact messages, newest first (admins)',
      response: { 200: E.messages.response, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async () => deps.contact.list(),
  });

  typed.route({
    method: E.unreadCount.method,
    url: E.unreadCount.path,
    config: adminOnly('contactMessages'),
    schema: {
      tags: ['contact'],
      summary: 'How many contact messages no admin has read yet (admins)',
      response: { 200: E.unreadCount.response, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async () => ({ unread: await deps.contact.unreadCount() }),
  });

  typed.route({
    method: E.updateMessage.method,
    url: E.updateMessage.path,
    config: adminOnly('contactMessages'),
    schema: {
      tags: ['contact'],
      summary: 'Mark a contact message read/unread or handled (admins)',
      params: E.updateMessage.params,
      body: E.updateMessage.body,
      response: {
        200: E.updateMessage.response,
        400: ErrorResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request) => deps.contact.update(request.params.id, request.body),
  });

  typed.route({
    method: E.deleteMessage.method,
    url: E.deleteMessage.path,
    config: adminOnly('contactMessages'),
    schema: {
      tags: ['contact'],
      summary: 'Delete a contact message (admins)',
      params: E.deleteMessage.params,
      response: { 200: E.deleteMessage.response, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => {
      await deps.contact.remove(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });
}
