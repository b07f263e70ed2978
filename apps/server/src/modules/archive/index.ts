/**
 * The archive module's face: `POST /api/files/archive`, chosen files and folders as one streamed zip.
 *
 * `archive.service.ts` (docs/PRODUCT.md#file-screens) authorises every chosen file (`read`) and folder first — the
 * first refusal is the answer (404) and nothing is streamed — then walks each folder's tree into
 * `lib/http/zip-stream.ts` `createZipStream()`, the one zip writer (the folder link's zip uses it too): yazl, entries
 * stored so the length is known and sent, each blob opened only when the zip reaches it, entry names made safe and
 * unique per folder, paths too long for a zip cut to a common byte budget (too deep even then → 400 before anything is
 * sent).
 */
import type { FastifyInstance } from 'fastify';
import { registerArchiveRoutes } from './archive.routes';
import { createArchiveService, type ArchiveServiceDeps } from './archive.service';

export function createArchiveModule(app: FastifyInstance, deps: ArchiveServiceDeps) {
  registerArchiveRoutes(app, { archive: createArchiveService(deps) });
}
