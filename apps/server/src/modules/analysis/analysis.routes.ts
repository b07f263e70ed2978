import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { requestContext } from '../../lib/http/request-context';
import type { AnalysisService } from './analysis.service';
import { routesOf } from '../../plugins/route';

/**
 * `GET /api/files/{id}/insights`: what background analysis found in a file, for whoever may read the file; a
 * workspace's analysis setting (read by members, changed by owners: a `settings.changed` audit entry).
 */
export function registerAnalysisRoutes(app: FastifyInstance, { analysis }: { analysis: AnalysisService }) {
  const { insights, setting, changeSetting } = ENDPOINTS.analysis;
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['workspaces'] });

  serve(insights, {
    tags: ['files'],
    summary: 'What background analysis found in a file: text (OCR, document), transcript, caption, tags, faces',
    errors: [404],
    handler: async (request) => analysis.insights(await request.requireUser(), request.params.id),
  });
  serve(setting, {
    summary: "A workspace's background analysis: on, no-faces or off (members)",
    errors: [404],
    handler: async (request) => analysis.setting(await request.requireUser(), request.params.id),
  });
  serve(changeSetting, {
    summary: "Change a workspace's background analysis (owners); no-faces drops faces found, off drops insights",
    errors: [400, 403, 404],
    handler: async (request) => {
      const actor = await request.requireUser();
      return analysis.setSetting(actor, request.params.id, request.body.analysis, requestContext(request));
    },
  });
}
