import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { AnalysisService } from './analysis.service';

/**
 * `GET /api/files/{id}/insights`: what background analysis found in a file, for whoever may read the file; a
 * workspace's analysis setting (read by members, changed by owners: a `settings.changed` audit entry).
 */
export function registerAnalysisRoutes(
  app: FastifyInstance,
  { analysis, events }: { analysis: AnalysisService; events: EventEmitter },
) {
  const { insights, setting, changeSetting } = ENDPOINTS.analysis;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: insights.method,
    url: insights.path,
    config: { access: 'user' },
    schema: {
      tags: ['files'],
      summary: 'What background analysis found in a file: text (OCR, document), transcript, caption, tags, faces',
      params: insights.params,
      response: { 200: insights.response, 404: ErrorResponse },
    },
    handler: async (request) => analysis.insights(await request.requireUser(), request.params.id),
  });
  app.withTypeProvider<ZodTypeProvider>().route({
    method: setting.method,
    url: setting.path,
    config: { access: 'user' },
    schema: {
      tags: ['workspaces'],
      summary: "A workspace's background analysis: on, no-faces or off (members)",
      params: setting.params,
      response: { 200: setting.response, 404: ErrorResponse },
    },
    handler: async (request) => analysis.setting(await request.requireUser(), request.params.id),
  });
  app.withTypeProvider<ZodTypeProvider>().route({
    method: changeSetting.method,
    url: changeSetting.path,
    config: { access: 'user' },
    schema: {
      tags: ['workspaces'],
      summary: "Change a workspace's background analysis (owners); no-faces drops faces found, off drops insights",
      params: changeSetting.params,
      body: changeSetting.body,
      response: { 200: changeSetting.response, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const changed = await analysis.setSetting(actor, request.params.id, request.body.analysis);
      await events.emit('settings.changed', {
        actor: actor.ownerKey,
        target: `workspace:${request.params.id}`,
        details: { setting: 'analysis', to: changed.analysis },
        ...requestContext(request),
      });
      return changed;
    },
  });
}
