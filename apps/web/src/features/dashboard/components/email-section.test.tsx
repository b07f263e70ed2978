import type { EmailPreferences } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailSection } from './email-section';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ON: EmailPreferences = {
  available: true,
  address: 'bob@example.test',
  shareNotices: false,
  memberNotices: false,
  dailyDigest: false,
};

function renderWith(answers: (init?: RequestInit) => Response) {
  const calls: RequestInit[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init?: RequestInit) => {
      calls.push(init ?? {});
      return Promise.resolve(answers(init));
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <EmailSection />
    </QueryClientProvider>,
  );
  return calls;
}

/** Profile → Email (docs/PRODUCT.md#email). */
describe('EmailSection', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says where emails go and saves a choice', async () => {
    const calls = renderWith((init) =>
      init?.method === 'PUT' ? json(200, { ...ON, shareNotices: true }) : json(200, ON),
    );
    expect(await screen.findByText('Emails go to bob@example.test. Each one has a link to unsubscribe.')).toBeTruthy();
    const box = screen.getByRole('checkbox', { name: /When something is shared with me/ });
    fireEvent.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    const put = calls.find((init) => init.method === 'PUT');
    expect(JSON.parse(String(put?.body))).toEqual({ shareNotices: true });
  });

  it('says email is off on this server and disables the choices', async () => {
    renderWith(() => json(200, { ...ON, available: false }));
    expect(await screen.findByText('Email is off on this server: nothing is sent.')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: /Daily digest/ }) as HTMLInputElement).disabled).toBe(true);
  });

  it('says the account has no email address', async () => {
    renderWith(() => json(200, { ...ON, address: null }));
    expect(await screen.findByText('Your account has no email address, so nothing can be sent to you.')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: /added to a workspace/ }) as HTMLInputElement).disabled).toBe(true);
  });

  it('shows why the choices cannot be read', async () => {
    renderWith(() => json(500, { error: { code: 'INTERNAL', message: 'Something went wrong.' } }));
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});
