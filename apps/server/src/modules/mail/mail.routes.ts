import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type EmailKind } from '@atrium/contracts';
import { routesOf } from '../../plugins/route';
import type { MailService } from './mail.service';

const E = ENDPOINTS.mail;

const TURNED_OFF: Record<EmailKind, string> = {
  share: 'You will no longer get an email when something is shared with you.',
  member: 'You will no longer get an email when you are added to a workspace.',
  digest: 'You will no longer get the daily digest of unread notifications.',
};

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:48px auto;padding:0 16px;line-height:1.5}' +
  '.brand{font-weight:700;font-size:18px}h1{font-size:22px}a{color:#1d4ed8}';
/** The page's own policy: no script at all, only its one style block (by hash). */
const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** The small page the unsubscribe link opens (no script; the kind is one of three fixed texts). */
const unsubscribedPage = (kind: EmailKind) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unsubscribed · Atrium</title><style>${PAGE_STYLE}</style></head>
<body><main>
<p class="brand">Atrium</p>
<h1>Unsubscribed</h1>
<p>${TURNED_OFF[kind]}</p>
<p>You can turn it on again in Profile → Email.</p>
<p><a href="/dashboard/profile">Open your profile</a></p>
</main></body></html>
`;

/** `GET/PUT /api/me/email-preferences` (signed in, own only) and the signed unsubscribe link (public). */
export async function registerMailRoutes(app: FastifyInstance, { mail }: { mail: MailService }) {
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['auth'] });
  serve(E.get, {
    summary: "The signed-in person's email choices, whether the server sends email, and their address",
    handler: async (request) => mail.get(await request.requireUser()),
  });
  serve(E.update, {
    summary: "Change the signed-in person's email choices (only those named)",
    errors: [400],
    handler: async (request) => mail.update(await request.requireUser(), request.body),
  });

  // Own scope: RFC 8058 clients post `List-Unsubscribe=One-Click` as a form, which only these routes read.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, body),
    );
    const open = routesOf(scope, { config: { access: 'public' }, tags: ['auth'] });
    open(E.unsubscribe, {
      summary: 'Turn off one kind of email from the signed link in it (no sign-in); answers a small page',
      errors: [400, 404],
      handler: async (request, reply) => {
        const { u, k, t } = request.query;
        await mail.unsubscribe(u, k, t);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-security-policy', PAGE_CSP)
          .send(unsubscribedPage(k));
      },
    });
    open(E.unsubscribeOneClick, {
      summary: 'RFC 8058 one-click unsubscribe: the mail client posts to the signed link',
      errors: [400, 404],
      consumes: ['application/x-www-form-urlencoded'],
      handler: async (request) => {
        const { u, k, t } = request.query;
        await mail.unsubscribe(u, k, t);
        return { kind: k, unsubscribed: true as const };
      },
    });
  });
}
