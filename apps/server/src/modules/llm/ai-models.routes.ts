import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import { withFilePart } from '../../lib/multipart';
import { routesOf } from '../../plugins/route';
import type { AiModelsService } from './ai-models.service';

/** `/api/admin/ai/models`: the admin's uploaded GGUF models (docs/PRODUCT.md#ai-models). */
export async function registerAiModelsRoutes(
  app: FastifyInstance,
  { models, events, maxUploadBytes }: { models: AiModelsService; events: EventEmitter; maxUploadBytes: number },
) {
  const E = ENDPOINTS.aiModels;
  await app.register(async (scope) => {
    // The multipart parser for these routes only; the service counts the bytes against the limit itself.
    await scope.register(multipart, {
      limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 100 },
    });
    const serve = routesOf(scope, { config: adminOnly('settings'), tags: ['ai'] });
    serve(E.list, {
      summary: 'The uploaded models and what answers now (a provider, a selected model, or none)',
      handler: async () => models.list(),
    });
    serve(E.upload, {
      summary: 'Upload a GGUF model (multipart field `file`); it is checked before it is kept',
      consumes: ['multipart/form-data'],
      errors: [400, 413, 415],
      handler: async (request, reply) => {
        const admin = await request.requireUser();
        const created = await withFilePart(request, (part) => models.upload(admin.ownerKey, part));
        await events.emit(
          'ai_model.uploaded',
          changeBy(request, admin, {
            target: `ai_model:${created.id}`,
            details: { name: created.name, sizeBytes: created.sizeBytes },
          }),
        );
        return reply.status(E.upload.status).send(created);
      },
    });
    serve(E.select, {
      summary: 'Select a model for generated answers (`chat`) or embeddings, or take it out of use (null)',
      errors: [400, 404],
      handler: async (request) => {
        const admin = await request.requireUser();
        const selected = await models.select(request.params.id, request.body.role);
        await events.emit(
          'ai_model.selected',
          changeBy(request, admin, { target: `ai_model:${selected.id}`, details: { role: selected.role } }),
        );
        return selected;
      },
    });
    serve(E.remove, {
      summary: 'Delete an uploaded model (unloaded first)',
      errors: [404],
      handler: async (request) => {
        const admin = await request.requireUser();
        const removed = await models.remove(request.params.id);
        await events.emit(
          'ai_model.deleted',
          changeBy(request, admin, { target: `ai_model:${removed.id}`, details: { name: removed.name } }),
        );
        return removed;
      },
    });
  });
}
