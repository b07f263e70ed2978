import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  FileIdParams,
  FileInsights,
  WorkspaceAnalysisSettings,
  WorkspaceIdParams,
} from '@atrium/contracts';
import type { AnalysisService } from './analysis.service';

/** `GET /api/files/{id}/insights`: what background analysis found in a file, for whoever may read the file. */
export function registerAnalysisRoutes(app: FastifyInstance, { analysis }: { analysis: AnalysisService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/files/:id/insights',
    {
      config: { access: 'user' },
      schema: {
        tags: ['files'],
        summary: 'What background analysis found in a file: text (OCR, document), transcript, caption, tags, faces',
        params: FileIdParams,
        response: { 200: FileInsights, 404: ErrorResponse },
      },
    },
    async (request) => analysis.insights(await request.requireUser(), request.params.id),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/workspaces/:id/analysis',
    {
      config: { access: 'user' },
      schema: {
        tags: ['workspaces'],
        summary: "A workspace's background analysis: on, no-faces or off (members)",
        params: WorkspaceIdParams,
        response: { 200: WorkspaceAnalysisSettings, 404: ErrorResponse },
      },
    },
    async (request) => analysis.setting(await request.requireUser(), request.params.id),
  );
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/workspaces/:id/analysis',
    {
      config: { access: 'user' },
      schema: {
        tags: ['workspaces'],
        summary: "Change a workspace's background analysis (owners); no-faces drops faces found, off drops insights",
        params: WorkspaceIdParams,
        body: WorkspaceAnalysisSettings,
        response: { 200: WorkspaceAnalysisSettings, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => analysis.setSetting(await request.requireUser(), request.params.id, request.body.analysis),
  );
}
