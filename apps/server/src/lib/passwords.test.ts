import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { createSemaphore, hashPassword, PASSWORD_BUSY_MESSAGE, passwordProblem, verifyPassword } from './passwords';

describe('password checks semaphore', () => {
  it('holds at most `max`, queues at most `maxWaiting`, refuses the rest with 429 and takes again once released', async () => {
    const semaphore = createSemaphore({ max: 2, maxWaiting: 1 });
    const first = await semaphore.acquire();
    const second = await semaphore.acquire();
    let thirdHolds = false;
    const third = semaphore.acquire().then((release) => {
      thirdHolds = true;
      return release;
    });
    expect(semaphore.stats()).toEqual({ active: 2, waiting: 1 });

    // Full: refused at once, nothing queued.
    const refused = await semaphore.acquire().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: PASSWORD_BUSY_MESSAGE,
      headers: { 'retry-after': '1' },
    });
    expect(semaphore.stats()).toEqual({ active: 2, waiting: 1 });

    // Released: the waiter gets the slot, and the queue has room again.
    first();
    first();
    const releaseThird = await third;
    expect(thirdHolds).toBe(true);
    expect(semaphore.stats()).toEqual({ active: 2, waiting: 0 });
    const fourth = semaphore.acquire();
    second();
    releaseThird();
    (await fourth)();
    expect(semaphore.stats()).toEqual({ active: 0, waiting: 0 });
    (await semaphore.acquire())();
  });

  it('hashes and verifies through it', async () => {
    const hash = await hashPassword('open sesame');
    expect(await verifyPassword('open sesame', hash)).toBe(true);
    expect(await verifyPassword('open sesam', hash)).toBe(false);
  });
});

describe('passwordProblem (local accounts)', () => {
  it('refuses fewer than 12 characters, counting characters rather than bytes', () => {
    expect(passwordProblem('eleven-char')).toBe(ACCOUNT_TEXTS.passwordTooShort);
    expect(passwordProblem('ééééééééééé')).toBe(ACCOUNT_TEXTS.passwordTooShort);
  });

  it('refuses common passwords in any letter case and accepts an uncommon one', () => {
    expect(passwordProblem('password1234')).toBe(ACCOUNT_TEXTS.passwordCommon);
    expect(passwordProblem('QWERTYUIOPAS')).toBe(ACCOUNT_TEXTS.passwordCommon);
    expect(passwordProblem('123456789012')).toBe(ACCOUNT_TEXTS.passwordCommon);
    expect(passwordProblem('violet-harbour-lantern-42')).toBeUndefined();
  });
});
