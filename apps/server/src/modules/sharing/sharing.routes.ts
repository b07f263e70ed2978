import { ENDPOINTS, ErrorResponse, Share } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { ShareResource } from './sharing.repository';
import type { GranteeInput, SharingService } from './sharing.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;
const USER = { access: 'user' } as const;
const tags = ['sharing'];

/**
 * Sharing with people and workspaces (issue 15): grant or change (PUT), revoke (DELETE) and list (GET) the shares
 * of a file or folder, and the caller's Shared with me. Who may do what is the file and folder policies' `share`
 * action, asked by the service.
 */
export function registerSharingRoutes(app: FastifyInstance, deps: { sharing: SharingService; events: EventEmitter }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sharing, events } = deps;

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

      typed.route({
        method: set.method,
        url: set.path,
        config: USER,
        schema: {
          tags,
          summary: `Share ${label} with ${whom} as viewer or editor, or change the role (owners and editors)`,
          params: set.params,
          body: set.body,
          response: { 200: set.response, 201: Share, ...errors },
        },
        handler: async (request, reply) => {
          const actor = await request.requireUser();
          const p = request.params as { id: string; userId?: string; workspaceId?: string };
          const { created, share } = await sharing.set(actor, resource(p.id), granteeOf(p), request.body.role);
          await events.emit('share.created', {
            actor: actor.ownerKey,
            target: `share:${share.id}`,
            subject: `${kind}:${p.id}`,
            details: { [kind]: p.id, grantee: granteeOf(p), role: share.role, changed: !created },
            ...requestContext(request),
          });
          return reply.status(created ? 201 : 200).send(share);
        },
      });

      typed.route({
        method: revoke.method,
        url: revoke.path,
        config: USER,
        schema: {
          tags,
          summary: `Revoke the share of ${label} with ${whom} (those who may share it, or the recipient)`,
          params: revoke.params,
          response: { 200: revoke.response, ...errors },
        },
        handler: async (request) => {
          const p = request.params as { id: string; userId?: string; workspaceId?: string };
          const actor = await request.requireUser();
          const revoked = await sharing.revoke(actor, resource(p.id), granteeOf(p));
          await events.emit('share.revoked', {
            actor: actor.ownerKey,
            target: `share:${revoked.id}`,
            subject: `${kind}:${p.id}`,
            details: { [kind]: p.id, grantee: granteeOf(p) },
            ...requestContext(request),
          });
          return revoked;
        },
      });
    }

    typed.route({
      method: E.list.method,
      url: E.list.path,
      config: USER,
      schema: {
        tags,
        summary: `Who has access to ${label}: its owner and its shares (owners and editors; viewers 403)`,
        params: E.list.params,
        response: { 200: E.list.response, ...errors },
      },
      handler: async (request) => sharing.list(await request.requireUser(), resource(request.params.id)),
    });
  }

  typed.route({
    method: ENDPOINTS.sharing.sharedWithMe.method,
    url: ENDPOINTS.sharing.sharedWithMe.path,
    config: USER,
    schema: {
      tags,
      summary: 'Files and folders shared with the caller (directly or with a workspace of theirs), newest first',
      response: { 200: ENDPOINTS.sharing.sharedWithMe.response, 401: ErrorResponse },
    },
    handler: async (request) => sharing.sharedWithMe(await request.requireUser()),
  });
}
