import { ENDPOINTS, Share } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import type { ShareResource } from './sharing.repository';
import type { GranteeInput, SharingService } from './sharing.service';
import { routesOf } from '../../plugins/route';

const USER = { access: 'user' } as const;
const tags = ['sharing'];
const errors = [400, 403, 404] as const;

/**
 * Sharing with people and workspaces (docs/PRODUCT.md#sharing-with-people): grant or change (PUT), revoke (DELETE) and
 * list (GET) the shares of a file or folder, and the caller's Shared with me. Who may do what is the file and folder
 * policies' `share` action, asked by the service.
 */
export function registerSharingRoutes(app: FastifyInstance, deps: { sharing: SharingService; events: EventEmitter }) {
  const { sharing, events } = deps;
  const serve = routesOf(app, { config: USER, tags });

  for (const kind of ['file', 'folder'] as const) {
    const E = kind === 'file' ? ENDPOINTS.sharing.fileShares : ENDPOINTS.sharing.folderShares;
    const label = kind === 'file' ? 'a file' : 'a folder (and everything below it)';
    const resource = (id: string): ShareResource => ({ kind, id });
    const grantees = [
      { set: E.setUser, revoke: E.revokeUser, whom: 'a person (owner key)' },
      { set: E.setWorkspace, revoke: E.revokeWorkspace, whom: 'a workspace (its members)' },
    ];
    for (const { set, revoke, whom } of grantees) {
      const granteeOf = (p: { userId?: string; workspaceId?: string }): GranteeInput =>
        p.workspaceId !== undefined
          ? { kind: 'workspace', id: p.workspaceId }
          : { kind: 'user', ownerKey: p.userId ?? '' };

      serve(set, {
        summary: `Share ${label} with ${whom} as viewer or editor, or change the role (owners and editors)`,
        errors,
        responses: { 201: Share },
        handler: async (request, reply) => {
          const actor = await request.requireUser();
          const p = request.params as { id: string; userId?: string; workspaceId?: string };
          const { created, share } = await sharing.set(actor, resource(p.id), granteeOf(p), request.body.role);
          await events.emit(
            'share.created',
            changeBy(request, actor, {
              target: `share:${share.id}`,
              subject: `${kind}:${p.id}`,
              details: { [kind]: p.id, grantee: granteeOf(p), role: share.role, changed: !created },
            }),
          );
          return reply.status(created ? 201 : 200).send(share);
        },
      });

      serve(revoke, {
        summary: `Revoke the share of ${label} with ${whom} (those who may share it, or the recipient)`,
        errors,
        handler: async (request) => {
          const p = request.params as { id: string; userId?: string; workspaceId?: string };
          const actor = await request.requireUser();
          const revoked = await sharing.revoke(actor, resource(p.id), granteeOf(p));
          await events.emit(
            'share.revoked',
            changeBy(request, actor, {
              target: `share:${revoked.id}`,
              subject: `${kind}:${p.id}`,
              details: { [kind]: p.id, grantee: granteeOf(p) },
            }),
          );
          return revoked;
        },
      });
    }

    serve(E.list, {
      summary: `Who has access to ${label}: its owner and its shares (owners and editors; viewers 403)`,
      errors,
      handler: async (request) => sharing.list(await request.requireUser(), resource(request.params.id)),
    });
  }

  serve(ENDPOINTS.sharing.sharedWithMe, {
    summary: 'Files and folders shared with the caller (directly or with a workspace of theirs), newest first',
    handler: async (request) => sharing.sharedWithMe(await request.requireUser()),
  });
}
