import { describe, expect, it } from 'vitest';
import type { InvitationCreated, MeResponse, Workspace } from '@atrium/contracts';
import { expectJson, sendJson } from '../../../test/helpers';
import { canScaleOut, twoInstances } from '../../../test/two-instances';

/** An invitation made on one instance is accepted on the other, and the new account signs in on the first. */
describe.runIf(canScaleOut)('invitations across two instances (PostgreSQL + Redis)', () => {
  const pair = twoInstances();

  it('accepts on instance two an invitation made on instance one', async () => {
    const owner = await pair.one.signInAs({ owner_key: 'owner-two-instances', name: 'Owner' });
    const ws = await expectJson<Workspace>(
      sendJson(pair.one, owner, 'POST', '/api/workspaces', { name: 'Shared' }),
      201,
    );
    const invitation = await expectJson<InvitationCreated>(
      sendJson(pair.one, owner, 'POST', `/api/workspaces/${ws.id}/invitations`, {
        email: 'pat@example.test',
        role: 'editor',
      }),
      201,
    );
    const token = invitation.url.split('/').pop() ?? '';
    const accepted = await sendJson(pair.two, undefined, 'POST', `/api/public/invitations/${token}/accept`, {
      username: 'pat',
      password: 'quiet-meadow-river-17',
    });
    expect(accepted.status).toBe(201);
    expect(((await accepted.json()) as MeResponse).ownerKey).toBe('pat');
    const signIn = await sendJson(pair.one, undefined, 'POST', '/api/auth/login', {
      username: 'pat@example.test',
      password: 'quiet-meadow-river-17',
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const spaces = await expectJson<Workspace[]>(sendJson(pair.one, cookie, 'GET', '/api/workspaces'));
    expect(spaces.map((w) => [w.name, w.role])).toContainEqual(['Shared', 'editor']);
  });
});
