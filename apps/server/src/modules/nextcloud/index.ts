/**
 * The nextcloud module's face: what a Nextcloud desktop or mobile client needs besides the WebDAV tree
 * (docs/PRODUCT.md#nextcloud-clients). `discovery.routes.ts`: `GET /status.php` (installed, Nextcloud-compatible
 * version, product name Atrium), `GET /ocs/v{1,2}.php/cloud/capabilities` and `GET /ocs/v{1,2}.php/cloud/user`
 * (the caller's owner key as `id`, display name, email, personal quota), in the OCS envelope of `ocs.ts` (XML by
 * default, JSON with `?format=json`). Login Flow v2: `login-flow.routes.ts` (`/index.php/login/v2`, its poll and
 * flow page redirect; the page's `/api/login-flow/…` from the endpoint table), `login-flow.service.ts` (tokens by
 * hash, 20 minutes, single use; the app password minted when the client takes it), `login-flow.repository.ts`
 * (migration `0038-nextcloud`). Protocol routes, like tus: outside the endpoint table, named in the lint block and
 * docs/ARCHITECTURE.md. Chunked uploads are the dav module's (`dav.chunked.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { Clock } from '../../lib/time';
import type { SiteOrigin } from '../../lib/site-origin';
import type { AppPasswordsService } from '../app-passwords';
import { registerDiscoveryRoutes, type DiscoveryDeps } from './discovery.routes';
import { createLoginFlowRepository } from './login-flow.repository';
import { registerLoginFlowRoutes } from './login-flow.routes';
import { createLoginFlowService } from './login-flow.service';

export async function createNextcloudModule(
  app: FastifyInstance,
  deps: DiscoveryDeps & {
    db: Db;
    clock: Clock;
    events: EventEmitter;
    site: SiteOrigin;
    appPasswords: AppPasswordsService;
  },
) {
  registerDiscoveryRoutes(app, deps);
  const flows = createLoginFlowService({
    repo: createLoginFlowRepository(deps.db),
    clock: deps.clock,
    appPasswords: deps.appPasswords,
  });
  await registerLoginFlowRoutes(app, { flows, events: deps.events, site: deps.site });
  return { loginFlows: { sweep: () => flows.sweep() } };
}
