import { createHash, randomBytes } from 'node:crypto';
import { LOGIN_FLOW_TEXTS, LOGIN_FLOW_TTL_MS } from '@atrium/contracts';
import { userActor, type UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { AppPasswordsService } from '../app-passwords';
import type { LoginFlowRepository } from './login-flow.repository';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** 64 hex characters (256 bits; path parameters stay within 100 characters). */
const newToken = () => randomBytes(32).toString('hex');
const TOKEN = /^[0-9a-f]{64}$/;
const expired = () => new AppError('NOT_FOUND', LOGIN_FLOW_TEXTS.expired);

/** The app password's name: the client's User-Agent (as Nextcloud names it), within the names' 100 characters. */
export const clientNameOf = (userAgent: string | undefined) => {
  // eslint-disable-next-line no-control-regex
  const name = (userAgent ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (name || 'Unknown client').slice(0, 100);
};

/**
 * Nextcloud Login Flow v2 (docs/PRODUCT.md#nextcloud-clients): a client starts a flow (a poll token for itself, a
 * login token for the browser page), the signed-in person grants it on the page, and the client's next poll takes
 * a new app password, once. Only the tokens' SHA-256 is stored; a flow lives 20 minutes (`LOGIN_FLOW_TTL_MS`); the
 * app password is minted when the client takes it, so it is never stored in the clear.
 */
export function createLoginFlowService({
  repo,
  clock,
  appPasswords,
}: {
  repo: LoginFlowRepository;
  clock: Clock;
  appPasswords: AppPasswordsService;
}) {
  return {
    async start(userAgent: string | undefined): Promise<{ pollToken: string; loginToken: string }> {
      const pollToken = newToken();
      const loginToken = newToken();
      const now = clock.now();
      await repo.insert({
        poll_token_hash: hashOf(pollToken),
        login_token_hash: hashOf(loginToken),
        client_name: clientNameOf(userAgent),
        created_at: iso(now),
        expires_at: iso(new Date(now.getTime() + LOGIN_FLOW_TTL_MS)),
        user_id: null,
        granted_at: null,
      });
      return { pollToken, loginToken };
    },
    /** The client a live, not yet granted flow is for (404 otherwise). */
    async show(loginToken: string): Promise<{ clientName: string }> {
      if (!TOKEN.test(loginToken)) throw expired();
      const row = await repo.byLoginHash(hashOf(loginToken), iso(clock.now()));
      if (!row || row.granted_at !== null) throw expired();
      return { clientName: row.client_name };
    },
    /** The signed-in person grants the flow (once; 404 when expired, unknown or already granted). */
    async grant(actor: UserActor, loginToken: string): Promise<{ clientName: string; granted: true }> {
      const { clientName } = await this.show(loginToken);
      if (!(await repo.grant(hashOf(loginToken), actor.id, iso(clock.now())))) throw expired();
      return { clientName, granted: true };
    },
    /**
     * The client's poll: null until the flow is granted (or when it is unknown, expired or taken); once granted, a
     * new app password named after the client, and the flow is gone.
     */
    async poll(
      pollToken: string,
    ): Promise<{ actor: UserActor; clientName: string; appPassword: string; id: string } | null> {
      if (!TOKEN.test(pollToken)) return null;
      const row = await repo.take(hashOf(pollToken), iso(clock.now()));
      if (!row || row.disabled_at !== null) return null;
      const actor = userActor(row);
      const created = await appPasswords.create(actor, row.client_name);
      return { actor, clientName: row.client_name, appPassword: created.password, id: created.id };
    },
    sweep: () => repo.sweep(iso(clock.now())),
  };
}

export type LoginFlowService = ReturnType<typeof createLoginFlowService>;
