import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ContactCreated, ContactMessageList, ContactRequest, ErrorResponse } from '@atrium/contracts';
import type { ContactService } from './contact.service';

export function registerContactRoutes(app: FastifyInstance, deps: { contact: ContactService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/contact',
    {
      config: { access: 'public' },
      schema: {
        tags: ['contact'],
        summary: 'Send a message through the contact form',
        body: ContactRequest,
        response: { 201: ContactCreated, 400: ErrorResponse, 429: ErrorResponse },
      },
      // A sender over the limit is refused before its body is read.
      onRequest: async (request) => deps.contact.checkLimit(request.ip),
    },
    async (request, reply) => {
      const created = await deps.contact.submit(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(201).send(created);
    },
  );

  typed.get(
    '/api/contact',
    {
      config: { access: 'admin', forbiddenMessage: 'Only admins can read contact messages.' },
      schema: {
        tags: ['contact'],
        summary: 'Contact messages, newest first (admins)',
        response: { 200: ContactMessageList, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => {
      await request.requireAdmin('Only admins can read contact messages.');
      return deps.contact.list();
    },
  );
}
