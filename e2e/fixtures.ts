import { test as base, expect, type ConsoleMessage } from '@playwright/test';

/**
 * Every e2e test fails if the page logs a console error or a CSP violation:
 * a strict policy only helps if nothing silently breaks under it. Chromium's
 * own log line for an expected 4xx answer (401 from /api/me when signed out,
 * a 404 the page handles) is not a page error; 5xx answers still count.
 */
const EXPECTED_CLIENT_ERROR = /^Failed to load resource: the server responded with a status of 4\d\d /;

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const onConsole = (message: ConsoleMessage) => {
        if (message.type() === 'error' && !EXPECTED_CLIENT_ERROR.test(message.text())) errors.push(message.text());
      };
      page.on('console', onConsole);
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      page.off('console', onConsole);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
