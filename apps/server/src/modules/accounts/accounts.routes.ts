import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { adminOnly } from '../../auth/policies/admin';
import { requestContext } from '../../lib/http/request-context';
import { SESSION_COOKIE } from '../../plugins/session';
import { routesOf } from '../../plugins/route';
import { sessionIdOf, type CompletePasswordLogin } from '../auth';
import type { AccountsService } from './accounts.service';
import type { LocalAccountsService } from './local-accounts.service';
import type { SignUpService } from './sign-up.service';

const E = ENDPOINTS.accounts;
const USER = { access: 'user' } as const;
const PUBLIC = { access: 'public' } as const;
const HOUR_MS = 3_600_000;
/** Public routes that hash a password or send an email: at most `max` requests an hour per client IP. */
const limited = (name: string, max: number) => ({
  access: 'public' as const,
  rateLimit: { name, max, windowMs: HOUR_MS, message: 'Too many attempts. Please try again later.' },
});
const NO_STORE = 'no-store';

/** Invitations, local accounts and password resets (docs/PRODUCT.md#invitations). */
export function registerAccountsRoutes(
  app: FastifyInstance,
  {
    accounts,
    local,
    signUp,
    completePasswordLogin,
  }: {
    accounts: AccountsService;
    local: LocalAccountsService;
    signUp: SignUpService;
    completePasswordLogin: CompletePasswordLogin;
  },
) {
  const serve = routesOf(app, { config: USER, tags: ['accounts'] });

  serve(E.inviteToWorkspace, {
    summary: 'Invite someone by email to a workspace, with a role (owners; admins when only admins may invite)',
    description:
      'Answers the link to hand over (`/invite/{token}`, shown only here); email sends it too when configured.',
    errors: [400, 403, 404],
    handler: async (request, reply) => {
      const created = await accounts.inviteToWorkspace(
        await request.requireUser(),
        request.params.id,
        request.body,
        requestContext(request),
      );
      return reply.status(E.inviteToWorkspace.status).header('cache-control', NO_STORE).send(created);
    },
  });

  serve(E.workspaceInvitations, {
    summary: "A workspace's pending invitations (owners)",
    errors: [403, 404],
    handler: async (request) => accounts.workspaceInvitations(await request.requireUser(), request.params.id),
  });

  serve(E.inviteToInstance, {
    config: adminOnly('users'),
    summary: 'Invite someone by email to the instance, as a user or an admin',
    errors: [400],
    handler: async (request, reply) => {
      const created = await accounts.inviteToInstance(
        await request.requireUser(),
        request.body,
        requestContext(request),
      );
      return reply.status(E.inviteToInstance.status).header('cache-control', NO_STORE).send(created);
    },
  });

  serve(E.instanceInvitations, {
    config: adminOnly('users'),
    summary: 'Pending invitations to the instance',
    handler: async () => accounts.instanceInvitations(),
  });

  serve(E.revoke, {
    summary: 'Revoke a pending invitation (an owner of its workspace, or an admin)',
    errors: [404, 409],
    handler: async (request) =>
      accounts.revoke(await request.requireUser(), request.params.id, requestContext(request)),
  });

  serve(E.resend, {
    summary: 'Send a pending invitation again: a new link and a new expiry (the old link stops working)',
    errors: [404, 409],
    handler: async (request, reply) =>
      reply
        .header('cache-control', NO_STORE)
        .send(await accounts.resend(await request.requireUser(), request.params.id, requestContext(request))),
  });

  serve(E.publicInvitation, {
    config: PUBLIC,
    summary: 'What an invitation link is for (the invitation page)',
    description: 'Unknown → 404; used, revoked, expired or its workspace deleted → 410, each with its own message.',
    errors: [404, 410],
    handler: async (request) => accounts.publicInvitation(request.params.token),
  });

  serve(E.accept, {
    config: limited('invitation-accept', 60),
    summary: 'Accept an invitation: create the local account and sign it in',
    errors: [400, 404, 409, 410, 429],
    handler: async (request, reply) => {
      const user = await accounts.accept(request.params.token, request.body, requestContext(request));
      const me = await completePasswordLogin(user, request, reply);
      return reply.status(E.accept.status).send(me);
    },
  });

  serve(E.changePassword, {
    summary: 'Change your password (local accounts); your other sessions end',
    errors: [400, 403, 409, 429],
    handler: async (request) => {
      const token = request.cookies[SESSION_COOKIE];
      return local.changePassword(await request.requireUser(), request.body, token ? sessionIdOf(token) : undefined, {
        ...requestContext(request),
        ip: request.ip,
      });
    },
  });

  serve(E.createLocalUser, {
    config: adminOnly('users'),
    summary: 'Create a local account; answers the link to set its password, to hand over',
    errors: [400, 409],
    handler: async (request, reply) => {
      const created = await local.createLocal(await request.requireUser(), request.body, requestContext(request));
      return reply.status(E.createLocalUser.status).header('cache-control', NO_STORE).send(created);
    },
  });

  serve(E.issueReset, {
    config: adminOnly('users'),
    summary: "A link to set a local account's password, to hand over",
    errors: [404],
    handler: async (request, reply) =>
      reply
        .header('cache-control', NO_STORE)
        .send(await local.issueReset(await request.requireUser(), request.params.userId, requestContext(request))),
  });

  serve(E.requestReset, {
    config: limited('password-reset-request', 20),
    summary: 'Forgot password: a reset link by email when an account has this address (the same answer either way)',
    errors: [400, 429],
    handler: async (request, reply) => {
      await local.requestReset(request.body.email);
      return reply.status(E.requestReset.status).send({ ok: true as const });
    },
  });

  serve(E.resetInfo, {
    config: PUBLIC,
    summary: 'Whose password a reset link sets',
    errors: [410],
    handler: async (request) => local.resetInfo(request.params.token),
  });

  serve(E.reset, {
    config: limited('password-reset', 60),
    summary: 'Set a new password through a reset link; every session of the account ends',
    errors: [400, 410, 429],
    handler: async (request) => local.reset(request.params.token, request.body.password, requestContext(request)),
  });

  serve(E.signUpInfo, {
    config: PUBLIC,
    summary: 'Whether self-sign-up is open, and to which email domains (the sign-in page links to /signup when open)',
    handler: async () => signUp.info(),
  });

  serve(E.signUp, {
    config: limited('signup', 10),
    summary: 'Sign up: a link to create the account, by email (the address is verified before any account exists)',
    description:
      'Closed (no domains, or no email configured) → 403 SIGN_UP_CLOSED; an address outside the domains → 403 ' +
      'SIGN_UP_DOMAIN_NOT_ALLOWED. Otherwise 202, the same whether or not the address has an account.',
    errors: [400, 403, 429],
    handler: async (request, reply) => {
      await signUp.request(request.body.email, requestContext(request));
      return reply.status(E.signUp.status).send({ ok: true as const });
    },
  });

  serve(E.settings, {
    config: adminOnly('settings'),
    summary: 'Who may invite, and self-sign-up',
    handler: async () => accounts.settings(),
  });

  serve(E.updateSettings, {
    config: adminOnly('settings'),
    summary: 'Change who may invite, or the email domains that may sign up by themselves',
    errors: [400],
    handler: async (request) =>
      accounts.updateSettings(await request.requireUser(), request.body, requestContext(request)),
  });
}
