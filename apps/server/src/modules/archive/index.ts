/** The archive module's face: `POST /api/files/archive`, chosen files and folders as one streamed zip. */
import type { FastifyInstance } from 'fastify';
import { registerArchiveRoutes } from './archive.routes';
import { createArchiveService, type ArchiveServiceDeps } from './archive.service';

export function createArchiveModule(app: FastifyInstance, deps: ArchiveServiceDeps) {
  registerArchiveRoutes(app, { archive: createArchiveService(deps) });
}
