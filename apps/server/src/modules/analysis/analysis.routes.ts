import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorResponse, FileIdParams, FileInsights } from '@atrium/contracts';
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
}
