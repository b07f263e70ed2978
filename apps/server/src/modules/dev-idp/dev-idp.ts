import { generateKeyPairSync, hkdfSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { ensureLocalSecret } from '../../config';
import { AppError } from '../../errors';
import { checkDemoUser, DEMO_USERS, demoClaims, findDemoUser } from './demo-users';
import { escapeHtml, page, STYLESHEET } from './pages';

export const DEV_IDP_PREFIX = '/oidc';

export interface DevIdpOptions {
  /** `${publicUrl}/oidc` */
  issuer: string;
  publicUrl: string;
  /**
   * PUBLIC_URL is unset: Atrium is used at whatever address browsers reach it (127.0.0.1, a LAN
   * address), so the callback and post-logout URLs on the address of the request are accepted too.
   */
  anyOrigin?: boolean;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  dataDir: string;
  sessionSecret: string;
  trustProxy: boolean;
  /** The provider this one stands in for (OIDC_PROVIDER_NAME), named on its login page. */
  providerName: string;
}

/** The provider's signing key, generated once and kept in DATA_DIR/secrets so restarts keep tokens valid. */
function signingKey(dataDir: string) {
  const json = ensureLocalSecret(dataDir, 'dev-oidc-signing-key.json', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid: 'atrium-dev', use: 'sig', alg: 'RS256' });
  });
  return JSON.parse(json) as Record<string, string>;
}

const FORM_LIMIT = 16 * 1024;
const formTooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', `The sign-in form is larger than ${FORM_LIMIT / 1024} KB.`);

/**
 * The login form's fields. Over the limit → 413; the rest of the body is still read (and
 * dropped), so the keep-alive connection stays usable for the next request.
 */
function readForm(request: IncomingMessage, limit = FORM_LIMIT): Promise<URLSearchParams> {
  // Refused unread: Node discards the unread body after the answer.
  if (Number(request.headers['content-length'] ?? 0) > limit) return Promise.reject(formTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        request.off('data', onData);
        request.resume();
        reject(formTooLarge());
      }
    };
    request.on('data', onData);
    request.once('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.once('error', reject);
  });
}

const loginPage = (uid: string, providerName: string, options: { error?: string; username?: string } = {}) =>
  page(
    'Sign in — Atrium development identity provider',
    `<h1>Sign in</h1>
    <p class="lead">Atrium's built-in development identity provider. It stands in for ${escapeHtml(providerName)} while no OIDC_ISSUER is configured.</p>
    ${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
    <form method="post" action="${DEV_IDP_PREFIX}/interaction/${escapeHtml(uid)}/login" autocomplete="off">
      <label for="username">Username</label>
      <input id="username" name="username" required autofocus value="${escapeHtml(options.username ?? '')}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" required>
      <button type="submit">Continue</button>
    </form>
    <details><summary>Demo accounts</summary><ul>${DEMO_USERS.map(
      (u) => `<li><code>${u.username}</code> / <code>${u.password}</code> — ${escapeHtml(u.name)}</li>`,
    ).join('')}</ul></details>`,
  );

const avatar = (letter: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="#4f46e5"/><text x="48" y="60" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">${escapeHtml(letter)}</text></svg>`;

/**
 * Mounts a real OpenID Provider (oidc-provider) at /oidc for development and
 * tests: one registered client (Atrium itself), the demo users, and our own
 * sign-in page (no inline script or style, so the site's strict CSP holds).
 * State lives in memory: run one instance when it is enabled.
 */
export async function registerDevIdentityProvider(app: FastifyInstance, options: DevIdpOptions) {
  const cookieKey = Buffer.from(hkdfSync('sha256', options.sessionSecret, 'atrium', 'dev-oidc-cookies', 32));
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        client_name: 'Atrium',
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [`${options.publicUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'email'],
    claims: { openid: ['sub'], profile: ['name', 'nickname', 'picture', 'groups'], email: ['email', 'email_verified'] },
    async findAccount(_ctx, sub) {
      const user = findDemoUser(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: () => demoClaims(user, options.issuer) };
    },
    interactions: { url: (_ctx, interaction) => `${DEV_IDP_PREFIX}/interaction/${interaction.uid}` },
    // Atrium is a first-party client: no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        if (grant) return grant;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = page(
            'Sign out — Atrium development identity provider',
            `<h1>Sign out</h1><p class="lead">Also sign out of the development identity provider?</p>${form}
            <button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>Yes, sign me out</button>
            <button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>`,
          );
        },
        postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = page('Signed out', `<h1>Signed out</h1><p class="lead">You have been signed out.</p>`);
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<h1>Something went wrong</h1>${Object.entries(out)
          .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`)
          .join('')}<p><a href="/login">Back to Atrium</a></p>`,
      );
    },
    cookies: { keys: [cookieKey] },
    jwks: { keys: [signingKey(options.dataDir)] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
  };
  // Loaded only when enabled: production servers without it never load the package.
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.trustProxy;
  if (options.anyOrigin) {
    // Only the callback (or the site's root) at the origin this very request came to.
    const onRequestOrigin = (value: string, pathname: string) => {
      const ctx = Provider.ctx;
      return ctx !== undefined && value === `${ctx.protocol}://${ctx.host}${pathname}`;
    };
    const { redirectUriAllowed, postLogoutRedirectUriAllowed } = provider.Client.prototype;
    provider.Client.prototype.redirectUriAllowed = function (value: string) {
      return redirectUriAllowed.call(this, value) || onRequestOrigin(value, new URL(options.redirectUri).pathname);
    };
    provider.Client.prototype.postLogoutRedirectUriAllowed = function (value: string) {
      return postLogoutRedirectUriAllowed.call(this, value) || onRequestOrigin(value, '/');
    };
  }
  const callback = provider.callback();

  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    const hijacked = (reply: FastifyReply) => {
      reply.hijack();
      return reply.raw;
    };

    scope.get(`${DEV_IDP_PREFIX}/assets/dev-idp.css`, { config: { access: 'public' } }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(STYLESHEET),
    );
    scope.get<{ Params: { name: string } }>(
      `${DEV_IDP_PREFIX}/assets/avatar/:name`,
      { config: { access: 'public' } },
      async (request, reply) => {
        const user = DEMO_USERS.find((u) => `${u.username}.svg` === request.params.name);
        if (!user) return reply.status(404).type('text/plain').send('Not found');
        return reply.type('image/svg+xml').send(avatar(user.name.charAt(0)));
      },
    );

    scope.get<{ Params: { uid: string } }>(
      `${DEV_IDP_PREFIX}/interaction/:uid`,
      { config: { access: 'public' } },
      async (request, reply) => {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        if (details.uid !== request.params.uid) throw new Error('interaction mismatch');
        if (details.prompt.name === 'login')
          return reply.type('text/html; charset=utf-8').send(loginPage(details.uid, options.providerName));
        // Consent for the first-party client is granted without asking.
        const accountId = details.session?.accountId;
        if (!accountId || !details.params.client_id) throw new Error('interaction without a session');
        const grant = new provider.Grant({ clientId: String(details.params.client_id), accountId });
        grant.addOIDCScope('openid profile email');
        const grantId = await grant.save();
        return provider.interactionFinished(request.raw, hijacked(reply), { consent: { grantId } });
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${DEV_IDP_PREFIX}/interaction/:uid/login`,
      { config: { access: 'public' } },
      async (request, reply) => {
        const form = await readForm(request.raw);
        const details = await provider.interactionDetails(request.raw, reply.raw);
        const username = form.get('username') ?? '';
        const user = checkDemoUser(username, form.get('password') ?? '');
        if (!user) {
          return reply
            .status(401)
            .type('text/html; charset=utf-8')
            .send(loginPage(details.uid, options.providerName, { error: 'Wrong username or password.', username }));
        }
        return provider.interactionFinished(request.raw, hijacked(reply), { login: { accountId: user.sub } });
      },
    );

    // Everything else is the provider's own protocol endpoints (discovery, authorize, token, userinfo, logout…).
    scope.all(`${DEV_IDP_PREFIX}/*`, { config: { access: 'public' } }, (request, reply) => {
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(DEV_IDP_PREFIX.length) || '/';
      void callback(raw, hijacked(reply));
    });
  });
  app.log.info({ issuer: options.issuer }, 'development identity provider mounted');
  return provider;
}
