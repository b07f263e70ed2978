import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FileDetailsService } from './file-details.service';

/** `GET /api/files/{id}/details`: the details panel's data (issue 16). Same access as reading the file. */
export function registerFileDetailsRoutes(app: FastifyInstance, { details }: { details: FileDetailsService }) {
  const { details: endpoint } = ENDPOINTS.fileDetails;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    config: { access: 'user' },
    schema: {
      tags: ['files'],
      summary:
        "A file's details: type, size, SHA-256, location, versions, your role, who has access and its active links (owners and editors only), and its activity, newest first",
      params: endpoint.params,
      response: { 200: endpoint.response, 401: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => details.details(await request.requireUser(), request.params.id),
  });
}
