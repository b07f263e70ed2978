import { describe, expect, it } from 'vitest';
import type { AppError } from '../../errors';
import { userActor, type Actor } from '../actor';
import { canFile } from './file';
import { canFolder } from './folder';
import { canLink, LINK_MANAGE_ACTION, linkDecision, linkState, requireLink, type LinkSubject } from './link';
import { allows } from './roles';

const now = new Date('2026-11-24T12:00:00.000Z');
const link = (over: Partial<LinkSubject> = {}): LinkSubject => ({
  id: 'l1',
  kind: 'file',
  expiresAt: null,
  revokedAt: null,
  hasPassword: false,
  maxDownloads: null,
  downloads: 0,
  allowUpload: false,
  ...over,
});
const bearer = (unlocked = false, linkId = 'l1'): Actor => ({ kind: 'link', linkId, unlocked });
const alice = userActor({
  id: 'id-alice',
  owner_key: 'alice',
  role: 'admin',
  name: null,
  nickname: null,
  email: null,
  picture: null,
});
const outcome = (decision: 'allowed' | AppError) =>
  decision === 'allowed' ? 'allowed' : `${decision.statusCode} ${decision.code}`;

describe('link policy', () => {
  it('tells a link state: revoked before expired before used up', () => {
    expect(linkState(link(), now)).toBe('active');
    expect(linkState(link({ expiresAt: '2026-11-24T12:00:00.000Z' }), now)).toBe('expired');
    expect(linkState(link({ expiresAt: '2026-11-24T12:00:01.000Z' }), now)).toBe('active');
    expect(linkState(link({ maxDownloads: 2, downloads: 1 }), now)).toBe('active');
    expect(linkState(link({ maxDownloads: 2, downloads: 2 }), now)).toBe('usedUp');
    expect(
      linkState(
        link({ revokedAt: now.toISOString(), expiresAt: '2020-01-01T00:00:00Z', maxDownloads: 1, downloads: 1 }),
        now,
      ),
    ).toBe('revoked');
    expect(linkState(link({ expiresAt: '2020-01-01T00:00:00Z', maxDownloads: 1, downloads: 1 }), now)).toBe('expired');
    // A file drop has no downloads to count.
    expect(linkState(link({ kind: 'folder', allowUpload: true, maxDownloads: 1, downloads: 5 }), now)).toBe('active');
  });

  it('lets only the link own bearer act through it; users and API keys get the same 404 as a missing link', () => {
    for (const actor of [alice, bearer(true, 'other'), { kind: 'apiKey', keyId: 'k' } as Actor]) {
      for (const action of ['view', 'read', 'upload'] as const) {
        expect(outcome(linkDecision(actor, link(), action, now))).toBe('404 LINK_NOT_FOUND');
      }
    }
    expect(canLink(bearer(), link(), 'view', now)).toBe(true);
    expect(canLink(bearer(), link(), 'read', now)).toBe(true);
  });

  it('answers 404 revoked, 410 expired and used up, for every action', () => {
    const cases: [Partial<LinkSubject>, string][] = [
      [{ revokedAt: now.toISOString() }, '404 LINK_NOT_FOUND'],
      [{ expiresAt: '2026-01-01T00:00:00Z' }, '410 LINK_EXPIRED'],
      [{ maxDownloads: 3, downloads: 3 }, '410 LINK_USED_UP'],
    ];
    for (const [over, want] of cases) {
      for (const action of ['view', 'read', 'upload'] as const) {
        expect(outcome(linkDecision(bearer(true), link(over), action, now))).toBe(want);
      }
    }
  });

  it('lets a later range (resume) through a used-up link to the byte count, never through a locked, expired or revoked one', () => {
    const usedUp = link({ maxDownloads: 1, downloads: 1 });
    expect(outcome(linkDecision(bearer(true), usedUp, 'resume', now))).toBe('allowed');
    expect(outcome(linkDecision(bearer(true), usedUp, 'read', now))).toBe('410 LINK_USED_UP');
    expect(outcome(linkDecision(bearer(false), link({ ...usedUp, hasPassword: true }), 'resume', now))).toBe(
      '401 LINK_LOCKED',
    );
    expect(outcome(linkDecision(bearer(true), link({ expiresAt: '2026-01-01T00:00:00Z' }), 'resume', now))).toBe(
      '410 LINK_EXPIRED',
    );
    expect(outcome(linkDecision(bearer(true), link({ revokedAt: now.toISOString() }), 'resume', now))).toBe(
      '404 LINK_NOT_FOUND',
    );
    expect(outcome(linkDecision(bearer(true), link({ kind: 'folder', allowUpload: true }), 'resume', now))).toBe(
      '403 FORBIDDEN',
    );
  });

  it('lets a locked link show its page only; unlocked, everything its kind allows', () => {
    const locked = link({ hasPassword: true });
    expect(outcome(linkDecision(bearer(false), locked, 'view', now))).toBe('allowed');
    expect(outcome(linkDecision(bearer(false), locked, 'read', now))).toBe('401 LINK_LOCKED');
    expect(outcome(linkDecision({ kind: 'link', linkId: 'l1' }, locked, 'read', now))).toBe('401 LINK_LOCKED');
    expect(outcome(linkDecision(bearer(true), locked, 'read', now))).toBe('allowed');
    const lockedDrop = link({ kind: 'folder', allowUpload: true, hasPassword: true });
    expect(outcome(linkDecision(bearer(false), lockedDrop, 'upload', now))).toBe('401 LINK_LOCKED');
    expect(outcome(linkDecision(bearer(true), lockedDrop, 'upload', now))).toBe('allowed');
  });

  it('keeps a file drop upload-only and every other link read-only', () => {
    const drop = link({ kind: 'folder', allowUpload: true });
    expect(outcome(linkDecision(bearer(), drop, 'read', now))).toBe('403 FORBIDDEN');
    expect(outcome(linkDecision(bearer(), drop, 'upload', now))).toBe('allowed');
    expect(outcome(linkDecision(bearer(), link({ kind: 'folder' }), 'upload', now))).toBe('403 FORBIDDEN');
    expect(outcome(linkDecision(bearer(), link(), 'upload', now))).toBe('403 FORBIDDEN');
    // A file link flagged allowUpload (never created so) still uploads nothing.
    expect(outcome(linkDecision(bearer(), link({ allowUpload: true }), 'upload', now))).toBe('403 FORBIDDEN');
  });

  it('requireLink loads and decides in one call; missing is 404', async () => {
    await expect(requireLink(bearer(), 'read', now, async () => undefined)).rejects.toMatchObject({
      code: 'LINK_NOT_FOUND',
    });
    await expect(requireLink(bearer(), 'read', now, async () => link())).resolves.toMatchObject({ id: 'l1' });
    await expect(requireLink(bearer(), 'read', now, async () => link({ hasPassword: true }))).rejects.toMatchObject({
      code: 'LINK_LOCKED',
    });
  });

  it('lets owners and editors manage links, never viewers or outsiders', () => {
    expect(allows('owner', LINK_MANAGE_ACTION)).toBe(true);
    expect(allows('editor', LINK_MANAGE_ACTION)).toBe(true);
    expect(allows('viewer', LINK_MANAGE_ACTION)).toBe(false);
    expect(allows(null, LINK_MANAGE_ACTION)).toBe(false);
    const viewer = { workspaceId: 'w', ownerKey: null, memberRole: 'viewer' } as const;
    expect(canFolder(alice, LINK_MANAGE_ACTION, viewer)).toBe(false);
    expect(canFolder(alice, LINK_MANAGE_ACTION, { ...viewer, memberRole: 'editor' })).toBe(true);
    expect(
      canFile(alice, LINK_MANAGE_ACTION, { ownerKey: 'bob', workspaceId: 'w', memberRole: null, shareRole: 'viewer' }),
    ).toBe(false);
    expect(
      canFile(alice, LINK_MANAGE_ACTION, { ownerKey: 'bob', workspaceId: 'w', memberRole: null, shareRole: 'editor' }),
    ).toBe(true);
    // A link bearer manages nothing.
    expect(canFile(bearer(true), LINK_MANAGE_ACTION, { ownerKey: 'alice' })).toBe(false);
  });
});
