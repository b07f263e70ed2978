import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { requireUnlocked, type ReachingLock } from './write-lock';

const lock = (resourceId: string, userId: string, extra: Partial<ReachingLock> = {}): ReachingLock => ({
  resourceId,
  resourceKind: 'file',
  resourceName: `${resourceId}.txt`,
  userId,
  holderName: userId === 'u-ann' ? 'Ann' : 'Bob',
  expiresAt: '2026-11-28T12:00:00.000Z',
  ...extra,
});

const outcome = (actorId: string | null, locks: ReachingLock[]): string => {
  try {
    requireUnlocked(actorId, locks, new Date('2026-11-28T11:50:00.000Z'));
    return 'allowed';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return `${error.statusCode} ${error.code} ${error.message} ${JSON.stringify(error.details)} ${JSON.stringify(error.headers)}`;
  }
};

describe('write-lock policy', () => {
  it('allows a change nothing locks', () => {
    expect(outcome('u-bob', [])).toBe('allowed');
  });

  it('refuses anyone but the holder with 423 naming the locked item, its holder and when it times out', () => {
    const message = '“plan.txt” is locked by Ann, who is editing it in another app. Try again later.';
    expect(outcome('u-bob', [lock('plan', 'u-ann')])).toBe(
      `423 LOCKED ${message} [{"path":"file:plan","message":"${message}"}] {"retry-after":"600"}`,
    );
    expect(outcome('u-ann', [lock('plan', 'u-ann')])).toBe('allowed');
    // A file-drop upload (nobody signed in) never holds a lock.
    expect(outcome(null, [lock('plan', 'u-ann')])).toMatch(/^423 LOCKED/);
  });

  it('lets both holders of a shared lock work on, and refuses when one of several locked items is someone else’s', () => {
    expect(outcome('u-ann', [lock('plan', 'u-ann'), lock('plan', 'u-bob')])).toBe('allowed');
    expect(outcome('u-bob', [lock('plan', 'u-ann'), lock('plan', 'u-bob')])).toBe('allowed');
    const inFolder = [lock('a', 'u-ann'), lock('b', 'u-bob', { resourceKind: 'folder', resourceName: 'Drafts' })];
    expect(outcome('u-ann', inFolder)).toMatch(/^423 LOCKED “Drafts” is locked by Bob.*"path":"folder:b"/);
  });
});
