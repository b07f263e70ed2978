import { randomUUID } from 'node:crypto';
import type { InvitationSettings, SignUpInfo } from '@atrium/contracts';
import { ACCOUNT_TEXTS, signUpDomainMessage } from '@atrium/contracts/texts';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import type { AccountsRepository } from './accounts.repository';
import { DAY_MS, newToken } from './local-accounts.service';

/** A sign-up link is valid for a day (an invitation's TTL is for a person someone chose). */
export const SIGN_UP_LINK_MS = DAY_MS;

export interface SignUpServiceDeps {
  repo: AccountsRepository;
  clock: Clock;
  events: EventEmitter;
  /** `PUBLIC_URL`: the absolute link the email carries. */
  publicUrl: string;
  mailEnabled: boolean;
  /** The admin's invitation settings (their `signUpDomains`). */
  settings(): Promise<InvitationSettings>;
  log: { warn(details: object, message: string): void };
}

/**
 * Self-sign-up (docs/PRODUCT.md#self-sign-up): open only with email configured and to the admin's email domains. The
 * address is verified before any account exists: the answer is a link by email, an instance invitation nobody made
 * (role user, a day), which the person accepts on `/invite/{token}` like any invitation. An address that already has
 * an account gets an email saying so instead; the HTTP answer is the same either way.
 */
export function createSignUpService({ repo, clock, events, publicUrl, mailEnabled, settings, log }: SignUpServiceDeps) {
  const absolute = (path: string) => new URL(path, publicUrl).toString();

  async function info(): Promise<SignUpInfo> {
    const domains = mailEnabled ? (await settings()).signUpDomains : [];
    return { open: domains.length > 0, domains };
  }

  return {
    info,

    /**
     * Checks that sign-up is open to the address's domain (4xx otherwise) and answers; what depends on the address
     * itself (an account already there, or a new link) runs after, so the answer's timing says nothing about it.
     * Returns that work, for tests to wait on.
     */
    async request(email: string, context: RequestContext): Promise<{ done: Promise<void> }> {
      const { open, domains } = await info();
      if (!open) throw new AppError('SIGN_UP_CLOSED', ACCOUNT_TEXTS.signUpClosed);
      const address = email.trim().toLowerCase();
      const domain = address.slice(address.lastIndexOf('@') + 1);
      if (!domains.includes(domain)) throw new AppError('SIGN_UP_DOMAIN_NOT_ALLOWED', signUpDomainMessage(domains));
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => send(address, context))
        .catch((error: unknown) => log.warn({ err: error }, 'a sign-up link could not be sent'));
      return { done };
    },
  };

  async function send(address: string, context: RequestContext): Promise<void> {
    if (await repo.emailTaken(address)) {
      await events.emit('signup.requested', { email: address, url: absolute('/login'), expiresAt: null });
      return;
    }
    const { token, hash } = newToken();
    const now = clock.now();
    const expiresAt = iso(new Date(now.getTime() + SIGN_UP_LINK_MS));
    const id = randomUUID();
    await repo.insertInvitation({
      id,
      token_hash: hash,
      email: address,
      workspace_id: null,
      role: 'user',
      invited_by: null,
      created_at: iso(now),
      expires_at: expiresAt,
      for_workspace: 0,
    });
    await events.emit('invitation.created', {
      actor: null,
      target: 'instance',
      details: { invitation: id, email: address, role: 'user', via: 'signup' },
      ...context,
    });
    await events.emit('signup.requested', { email: address, url: absolute(`/invite/${token}`), expiresAt });
  }
}

export type SignUpService = ReturnType<typeof createSignUpService>;
