// `npm test`: unit, web and integration tiers (Vitest), then end-to-end (Playwright + Debian Chromium)
// against the built app served by the real server. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild, ensureDependencies, root } from './lib.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reports = path.join(root, '.tmp', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

ensureDependencies();

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedTier = false;

/** @param {string} file */
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

console.log(
  `\n▶ unit, web and integration tests${process.env.TEST_DATABASE_URL ? ' (SQLite and PostgreSQL)' : ' (SQLite; set TEST_DATABASE_URL for PostgreSQL too)'}`,
);
const vitestJson = path.join(reports, 'vitest.json');
const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  { cwd: root, stdio: 'inherit' },
);
const vitestReport = readJson(vitestJson);
if (vitestReport) {
  totals.passed += vitestReport.numPassedTests;
  totals.failed += vitestReport.numFailedTests;
  totals.skipped += vitestReport.numPendingTests + vitestReport.numTodoTests;
}
if (vitest.status !== 0) failedTier = true;

console.log('\n▶ end-to-end tests (Playwright + Chromium)');
if (!existsSync(chromium)) {
  console.error(
    `\n✖ Chromium is missing at ${chromium}. The end-to-end tests drive Debian's Chromium. Install it with:\n` +
      '    sudo apt-get update && sudo apt-get install -y chromium\n' +
      '  or point CHROMIUM_PATH at another Chromium binary.',
  );
  failedTier = true;
} else {
  ensureBuild();
  const playwrightJson = path.join(reports, 'playwright.json');
  const playwright = spawnSync(
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
    },
  );
  const stats = readJson(playwrightJson)?.stats;
  if (stats) {
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
  }
  if (playwright.status !== 0) failedTier = true;
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedTier || totals.failed > 0 ? 1 : 0);
