import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { zipHeaders } from '../../lib/http/zip-stream';
import type { ArchiveService } from './archive.service';
import { route } from '../../plugins/route';

/**
 * `POST /api/files/archive` (docs/PRODUCT.md#file-screens): signed-in users; each item is checked by the file and
 * folder policies.
 */
export function registerArchiveRoutes(app: FastifyInstance, deps: { archive: ArchiveService }) {
  const { archive } = ENDPOINTS.files;
  route(app, archive, {
    config: { access: 'user' },
    tags: ['files'],
    summary: 'Download files and folders (with everything in them) as one zip, streamed',
    handler: async (request, reply) => {
      const zip = await deps.archive.archive(await request.requireUser(), request.body);
      void reply.headers(zipHeaders(zip));
      return reply.send(zip.stream);
    },
  });
}
