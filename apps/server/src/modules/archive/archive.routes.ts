import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { zipHeaders } from '../../lib/http/zip-stream';
import type { ArchiveService } from './archive.service';

/** `POST /api/files/archive` (issue 16): signed-in users; each item is checked by the file and folder policies. */
export function registerArchiveRoutes(app: FastifyInstance, deps: { archive: ArchiveService }) {
  const { archive } = ENDPOINTS.files;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: archive.method,
    url: archive.path,
    config: { access: 'user' },
    schema: {
      tags: ['files'],
      summary: 'Download files and folders (with everything in them) as one zip, streamed',
      body: archive.body,
    },
    handler: async (request, reply) => {
      const zip = await deps.archive.archive(await request.requireUser(), request.body);
      void reply.headers(zipHeaders(zip));
      return reply.send(zip.stream);
    },
  });
}
