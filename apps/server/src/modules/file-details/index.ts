/**
 * The file details module's face: a file's details panel (where it is, its versions, who can read it, its links
 * and its activity).
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
