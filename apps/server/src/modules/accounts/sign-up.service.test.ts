import { describe, expect, it } from 'vitest';
import type { AccountsRepository } from './accounts.repository';
import { createSignUpService } from './sign-up.service';

/**
 * Self-sign-up's answer (docs/PRODUCT.md#self-sign-up) never waits for what depends on the address: whether an account
 * has it, and the link made for it, come after — so neither the answer nor its timing tells who has an account.
 */
describe('sign-up answers before it looks at the address', () => {
  const service = (emailTaken: () => Promise<boolean>) => {
    const emitted: string[] = [];
    const signUp = createSignUpService({
      repo: { emailTaken, insertInvitation: async () => undefined } as unknown as AccountsRepository,
      clock: { now: () => new Date('2026-11-28T12:00:00Z') },
      events: { emit: async (name: string) => void emitted.push(name) } as never,
      publicUrl: 'https://atrium.example.test',
      mailEnabled: true,
      settings: async () => ({ whoMayInvite: 'owners', signUpDomains: ['example.test'] }) as never,
      log: { warn: () => undefined },
    });
    return { signUp, emitted };
  };
  const context = { ip: '127.0.0.1', userAgent: 'test', requestId: 'r1' } as never;

  it('answers while the address lookup is still running, then sends the right email', async () => {
    let answerLookup: (taken: boolean) => void = () => undefined;
    const lookup = new Promise<boolean>((resolve) => (answerLookup = resolve));
    const { signUp, emitted } = service(() => lookup);
    const { done } = await signUp.request('New.Person@example.test', context);
    // Answered; nothing about the address has been decided or sent yet.
    expect(emitted).toEqual([]);
    answerLookup(false);
    await done;
    expect(emitted).toEqual(['invitation.created', 'signup.requested']);
  });

  it('answers the same for an address that has an account, which is told so by email', async () => {
    const { signUp, emitted } = service(async () => true);
    const { done } = await signUp.request('taken@example.test', context);
    await done;
    expect(emitted).toEqual(['signup.requested']);
  });

  it('refuses a domain the admin did not open, before anything is looked up', async () => {
    const { signUp } = service(() => Promise.reject(new Error('looked up')));
    await expect(signUp.request('someone@elsewhere.test', context)).rejects.toMatchObject({
      code: 'SIGN_UP_DOMAIN_NOT_ALLOWED',
    });
  });
});
