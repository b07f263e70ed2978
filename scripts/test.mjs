// `npm test`: unit, web and integration tiers (Vitest), the scale-out tier (nginx + two instances), then end-to-end (Playwright + Debian Chromium)
// against the built app served by the real server. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild, ensureDependencies, root } from './lib.mjs';
import { ensureSupportedNode } from './runtime.mjs';

// Node 22 or 24; on an older machine node this runs again under the one from npm (scripts/runtime.mjs).
await ensureSupportedNode();

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reports = path.join(root, '.tmp', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

ensureDependencies();

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedTier = false;

/** @param {string} file */
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

/** Adds a Vitest JSON report's counts to the totals. @param {string} file */
function countVitest(file) {
  const report = readJson(file);
  if (!report) return;
  totals.passed += report.numPassedTests;
  // A file that fails outside its tests (in beforeAll, or on import) fails no test: count it as one failure,
  // so the closing line never says "0 failed" for a failed run.
  /** @type {{ status: string, assertionResults: { status: string }[] }[]} */
  const files = report.testResults ?? [];
  const failedOutsideTests = files.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  totals.failed += report.numFailedTests + failedOutsideTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

console.log(
  `\n▶ unit, web and integration tests${process.env.TEST_DATABASE_URL ? ' (SQLite and PostgreSQL)' : ' (SQLite; set TEST_DATABASE_URL for PostgreSQL too)'}`,
);
const vitestJson = path.join(reports, 'vitest.json');
const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  { cwd: root, stdio: 'inherit' },
);
countVitest(vitestJson);
if (vitest.status !== 0) failedTier = true;

console.log('\n▶ scale-out (nginx in front of two built instances on PostgreSQL, Redis and S3)');
const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => existsSync(file));
if (!process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL) {
  console.log('  skipped: set TEST_DATABASE_URL and TEST_REDIS_URL (.ci/run does)');
} else if (!nginx) {
  console.error(
    "\n✖ nginx is missing. The scale-out test runs Debian's nginx. Install it with:\n    sudo apt-get install -y nginx",
  );
  failedTier = true;
} else {
  ensureBuild();
  const scaleJson = path.join(reports, 'scale-out.json');
  const scale = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '-c',
      'apps/server/test/scale-out/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${scaleJson}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  countVitest(scaleJson);
  if (scale.status !== 0) failedTier = true;
}

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
