import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationCreated, Workspace } from '@atrium/contracts';
import { createBrowser, formAction } from '../../../test/browser';
import { dialects, expectJson, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * A person who signs in through the identity provider with a verified email that has a pending invitation joins at
 * once (docs/PRODUCT.md#invitations); the invitation is then used.
 */
describe.each(dialects())('an identity-provider sign-in joins its invitations (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it('joins carol (carol@example.com, verified by the provider) to the workspace she was invited to', async () => {
    const olivia = await server.signInAs({ owner_key: 'olivia-oidc', name: 'Olivia' });
    const workspace = await expectJson<Workspace>(
      sendJson(server, olivia, 'POST', '/api/workspaces', { name: 'Atelier' }),
      201,
    );
    const invitation = await expectJson<InvitationCreated>(
      sendJson(server, olivia, 'POST', `/api/workspaces/${workspace.id}/invitations`, {
        email: 'Carol@Example.com',
        role: 'viewer',
      }),
      201,
    );

    const browser = createBrowser(server);
    const loginPage = await browser.follow('/api/auth/oidc/start');
    const action = formAction(await loginPage.response.text()) ?? '';
    const landed = await browser.follow(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'carol', password: 'singer' }).toString(),
    });
    expect(landed.response.status).toBe(302);
    const carol = browser.sessionCookie();
    const spaces = await expectJson<Workspace[]>(sendJson(server, carol, 'GET', '/api/workspaces'));
    expect(spaces.map((w) => [w.name, w.role])).toContainEqual(['Atelier', 'viewer']);

    const used = await sendJson(server, undefined, 'GET', `/api/public/invitations/${invitation.url.split('/').pop()}`);
    expect(used.status).toBe(410);
    expect((await readError(used)).code).toBe('INVITATION_USED');
  });
});
