/**
 * The nextcloud module's face: what a Nextcloud desktop or mobile client needs besides the WebDAV tree
 * (docs/PRODUCT.md#nextcloud-clients). `discovery.routes.ts`: `GET /status.php` (installed, Nextcloud-compatible
 * version, product name Atrium), `GET /ocs/v{1,2}.php/cloud/capabilities` and `GET /ocs/v{1,2}.php/cloud/user`
 * (the caller's owner key as `id`, display name, email, personal quota), in the OCS envelope of `ocs.ts` (XML by
 * default, JSON with `?format=json`). Protocol routes, like tus: outside the endpoint table, named in the lint block
 * and docs/ARCHITECTURE.md. Login Flow v2 and chunked uploads are not built yet.
 */
import type { FastifyInstance } from 'fastify';
import { registerDiscoveryRoutes, type DiscoveryDeps } from './discovery.routes';

export function createNextcloudModule(app: FastifyInstance, deps: DiscoveryDeps) {
  registerDiscoveryRoutes(app, deps);
}
