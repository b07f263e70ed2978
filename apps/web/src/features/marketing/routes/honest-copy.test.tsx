import { render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PublicLayout } from '../../../app/layouts/public-layout';
import AboutPage from './about';
import ContactPage from './contact';
import FeaturesPage from './features';
import HomePage from './home';
import PricingPage from './pricing';

/** Renders a public page inside the site's layout (header and footer included). */
function renderPage(Page: ComponentType) {
  const router = createMemoryRouter([{ element: <PublicLayout />, children: [{ path: '*', Component: Page }] }], {
    initialEntries: ['/page'],
  });
  return render(<RouterProvider router={router} />);
}

// The contact form sends no email, and analytics are not built.
const PROMISES_NOT_KEPT = [/reply by email/i, /analytics dashboard/i];

describe('the public site promises only what the product does', () => {
  it.each([
    ['home', HomePage],
    ['about', AboutPage],
    ['features', FeaturesPage],
    ['pricing', PricingPage],
    ['contact', ContactPage],
  ] as const)('%s makes no promise the product does not keep', (_name, Page) => {
    const { container } = renderPage(Page);
    for (const pattern of PROMISES_NOT_KEPT) expect(container.textContent).not.toMatch(pattern);
  });

  it('pricing keeps the spec figures, lists projects as included and analytics as coming soon, and says what an install includes', () => {
    renderPage(PricingPage);
    const free = screen.getByTestId('plan-free');
    const pro = screen.getByTestId('plan-pro');
    expect(free.textContent).toContain('$0/mo');
    expect(pro.textContent).toContain('$19/mo');
    expect(screen.getByTestId('plan-enterprise').textContent).toContain('Custom');
    expect(within(free).queryByRole('list', { name: 'Coming soon to the Free plan' })).toBeNull();
    expect(within(free).getAllByRole('list')[0]?.textContent).toContain('Up to 3 projects');
    expect(within(pro).getAllByRole('list')[0]?.textContent).toContain('Unlimited projects');
    const proSoon = within(pro).getByRole('list', { name: 'Coming soon to the Pro plan' });
    expect(
      within(proSoon)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Advanced analytics']);
    // "Sign up" is signing in; Pro is arranged by message, not by a sign-in that cannot sell it.
    expect(
      within(free)
        .getByRole('link', { name: /Sign up free/ })
        .getAttribute('href'),
    ).toBe('/login');
    expect(free.textContent).toContain('Your first sign-in with your identity provider creates your account.');
    expect(
      within(pro)
        .getByRole('link', { name: /Ask about Pro/ })
        .getAttribute('href'),
    ).toBe('/contact');
    expect(screen.getByText('What does a self-hosted install include?')).toBeTruthy();
    expect(screen.getByText(/^Everything: file storage/).textContent).toContain('No feature is kept for a paid plan');
    expect(screen.getByText(/^A workspace with its own members/).textContent).toContain(
      'shared with people or by link',
    );
  });

  it('contact says messages are stored for the administrators, not emailed', () => {
    renderPage(ContactPage);
    expect(screen.getByText(/^Messages are stored on this server for its administrators/).textContent).toContain(
      'Nothing is sent by email',
    );
  });
});
