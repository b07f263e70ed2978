import * as client from 'openid-client';
import { z } from 'zod';
import { ENDPOINTS } from '@atrium/contracts';
import type { OidcProfile } from './auth.service';

export interface OidcServiceDeps {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** The site's default origin (PUBLIC_URL, or http://localhost:PORT): discovery registers its callback. */
  publicUrl: string;
  /**
   * The provider is the embedded development one, mounted on this server: the browser is sent to it at
   * the address it uses for Atrium (the issuer names the default origin).
   */
  embedded?: boolean;
  /** Seconds before a request to the provider is given up. */
  timeoutSeconds?: number;
  /** `OIDC_ADMIN_CLAIM`: the claim whose values decide the role at each sign-in (undefined: not mapped). */
  adminClaim?: string | undefined;
  /** `OIDC_ADMIN_VALUES`: the values of that claim that mean admin. */
  adminValues?: readonly string[];
}

/**
 * Whether a claim value (a string, a list of strings, or a space- or comma-separated string) holds one of the
 * admin values; undefined when no claim is configured.
 */
export function claimMeansAdmin(
  value: unknown,
  claim: string | undefined,
  adminValues: readonly string[] = [],
): boolean | undefined {
  if (claim === undefined) return undefined;
  const values = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : typeof value === 'string'
      ? value.split(/[\s,]+/)
      : [];
  return values.some((item) => adminValues.includes(item));
}

/** What the browser carries (sealed) between the start of a sign-in and the callback. */
export const OidcFlow = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  returnTo: z.string(),
});
export type OidcFlow = z.infer<typeof OidcFlow>;

/** The provider could not be reached (discovery or a back-channel call failed at the network level). */
export class OidcUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The identity provider could not be reached', { cause });
    this.name = 'OidcUnavailableError';
  }
}

const CALLBACK_PATH = ENDPOINTS.auth.oidcCallback.path;

/**
 * Only a path on this site: `/dashboard/files?x=1`. Anything that could leave
 * the origin (`//evil`, `/\evil`, `https://…`, control characters) falls back.
 */
export function safeReturnTo(value: unknown, publicUrl: string, fallback = '/dashboard'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return fallback;
  const hasControlOrBackslash = [...value].some((char) => char.charCodeAt(0) < 0x20 || char === '\\');
  if (value.startsWith('//') || hasControlOrBackslash) return fallback;
  try {
    const origin = new URL(publicUrl).origin;
    const url = new URL(value, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The relying party (backend for frontend): authorization code flow with
 * PKCE, state and nonce. Tokens stay on the server; the browser only ever
 * gets the session cookie. The provider's metadata is discovered on first use
 * and cached; a failed discovery is retried on the next sign-in.
 */
export function createOidcService(deps: OidcServiceDeps) {
  const redirectUri = `${deps.publicUrl}${CALLBACK_PATH}`;
  const onSite = (url: URL, siteOrigin: string) =>
    deps.embedded ? new URL(`${url.pathname}${url.search}`, siteOrigin).href : url.href;
  let configuration: Promise<client.Configuration> | undefined;

  const discover = () => {
    configuration ??= client
      .discovery(
        new URL(deps.issuer),
        deps.clientId,
        { redirect_uris: [redirectUri], response_types: ['code'] },
        client.ClientSecretPost(deps.clientSecret),
        {
          timeout: deps.timeoutSeconds ?? 10,
          ...(deps.issuer.startsWith('http://') ? { execute: [client.allowInsecureRequests] } : {}),
        },
      )
      .catch((error: unknown) => {
        configuration = undefined;
        throw new OidcUnavailableError(error);
      });
    return configuration;
  };

  return {
    redirectUri,

    /**
     * The provider's authorization URL and the flow state to seal into a cookie. The callback is
     * on `siteOrigin`, the origin the browser uses for this site.
     */
    async start(returnTo: string, siteOrigin = deps.publicUrl): Promise<{ url: string; flow: OidcFlow }> {
      const config = await discover();
      const flow: OidcFlow = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        returnTo,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${siteOrigin}${CALLBACK_PATH}`,
        scope: deps.scopes,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: onSite(url, siteOrigin), flow };
    },

    /**
     * Exchanges the code (checking state, nonce and PKCE), then reads the
     * profile from userinfo: the ID token may carry only `sub`.
     */
    async finish(callbackUrl: URL, flow: OidcFlow): Promise<OidcProfile> {
      const config = await discover();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const subject = tokens.claims()?.sub;
      if (!subject) throw new Error('The ID token has no subject');
      const info = await client.fetchUserInfo(config, tokens.access_token, subject);
      const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
      return {
        issuer: config.serverMetadata().issuer,
        subject,
        name: text(info.name),
        nickname: text(info.nickname) ?? text(info.preferred_username),
        email: text(info.email),
        emailVerified: info.email_verified === true,
        picture: text(info.picture),
        admin: deps.adminClaim
          ? claimMeansAdmin(
              info[deps.adminClaim] ?? tokens.claims()?.[deps.adminClaim],
              deps.adminClaim,
              deps.adminValues,
            )
          : undefined,
      };
    },

    /**
     * The provider's end-session URL returning to the site origin, when the
     * provider supports RP-initiated logout; else undefined.
     */
    async endSessionUrl(siteOrigin = deps.publicUrl, idTokenHint?: string): Promise<string | undefined> {
      try {
        const config = await discover();
        if (!config.serverMetadata().end_session_endpoint) return undefined;
        const url = client.buildEndSessionUrl(config, {
          client_id: deps.clientId,
          post_logout_redirect_uri: `${siteOrigin}/`,
          ...(idTokenHint ? { id_token_hint: idTokenHint } : {}),
        });
        return onSite(url, siteOrigin);
      } catch {
        return undefined;
      }
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
