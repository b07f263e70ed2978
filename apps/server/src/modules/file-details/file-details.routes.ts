import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { FileDetailsService } from './file-details.service';
import { route } from '../../plugins/route';

/**
 * `GET /api/files/{id}/details`: the details panel's data (docs/PRODUCT.md#file-details). Same access as reading the
 * file.
 */
export function registerFileDetailsRoutes(app: FastifyInstance, { details }: { details: FileDetailsService }) {
  const { details: endpoint } = ENDPOINTS.fileDetails;
  route(app, endpoint, {
    config: { access: 'user' },
    tags: ['files'],
    summary:
      "A file's details: type, size, SHA-256, location, versions, your role, who has access and its active links (owners and editors only), and its activity, newest first",
    errors: [404],
    handler: async (request) => details.details(await request.requireUser(), request.params.id),
  });
}
