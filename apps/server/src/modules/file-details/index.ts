/**
 * The file details module's face: a file's details panel (where it is, its versions, who can read it, its links
 * and its activity).
 *
 * `GET /api/files/{id}/details` (docs/PRODUCT.md#file-details): the file comes from `readableWithRole` (the file
 * policy's `read`, with the caller's role); `fileDetailsView` in `auth/policies/file.ts` decides whether access and
 * links are included. The location is built as search builds it (share-only readers see from the highest shared
 * folder); `createdAt` is the first `file.uploaded` entry, else the oldest kept content; the SHA-256 is the
 * `files.sha256` every upload path fills. The activity is the audit log's entries whose `subject` is the file
 * (`file-details.repository.ts`, migration `0022-audit-subject`).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import { createFileDetailsRepository } from './file-details.repository';
import { registerFileDetailsRoutes } from './file-details.routes';
import { createFileDetailsService, type FileDetailsServiceDeps } from './file-details.service';

export interface FileDetailsModuleDeps extends Omit<FileDetailsServiceDeps, 'repo'> {
  db: Db;
}

export function createFileDetailsModule(app: FastifyInstance, { db, ...deps }: FileDetailsModuleDeps) {
  const details = createFileDetailsService({ ...deps, repo: createFileDetailsRepository(db) });
  registerFileDetailsRoutes(app, { details });
}
