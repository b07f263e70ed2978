// Debian Chromium, headless, with flags that work on a closed network: shared by the e2e suite
// (playwright.config.ts) and the Lighthouse benchmark (bench/lighthouse.mjs).

/** Where Debian installs Chromium (`CHROMIUM_PATH` overrides). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium 156 preloads two WebUI renderers (the omnibox popups) for every window, even headless, which no test
  // uses: about a third of the cost of each new browser context on two cores (measured: 600 → 430 ms idle; the
  // sharing and site specs 2.4 → 1.8 min).
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
