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
/** The names of what failed, repeated after the summary line so the end of a long log says what to look at. */
/** @type {string[]} */
const failures = [];
let failedTier = false;

/** @param {string | undefined} text */
const firstLine = (text) => ((text ?? '').trim().split('\n')[0] ?? '').slice(0, 300);

/** @param {string} file */
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

/** Adds a Vitest JSON report's counts to the totals. @param {string} file */
function countVitest(file) {
  const report = readJson(file);
  if (!report) return;
  totals.passed += report.numPassedTests;
  // A file that fails outside its tests (in beforeAll, or on import) fails no test: count it as one failure,
  // so the closing line never says "0 failed" for a failed run.
  /** @type {{ name: string, status: string, message?: string, assertionResults: { status: string, fullName: string, failureMessages?: string[] }[] }[]} */
  const files = report.testResults ?? [];
  const failedOutsideTests = files.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  totals.failed += report.numFailedTests + failedOutsideTests;
  for (const file of files) {
    const name = path.relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`${name} (outside its tests: ${firstLine(file.message)})`);
    for (const test of failed) failures.push(`${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  }
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

/**
 * Adds the Playwright tests whose final outcome is unexpected (failed after their retries) to `failures`.
 * @param {{ title?: string, file?: string, suites?: unknown[], specs?: { title: string, file: string, tests: { status: string, projectName: string, results: { error?: { message?: string } }[] }[] }[] }[]} suites
 */
function collectPlaywrightFailures(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const error = test.results.at(-1)?.error?.message;
        failures.push(`${spec.file} › ${spec.title} [${test.projectName}]: ${firstLine(error)}`);
      }
    }
    collectPlaywrightFailures(/** @type {any} */ (suite.suites ?? []));
  }
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
    collectPlaywrightFailures(readJson(playwrightJson)?.suites ?? []);
  }
  if (playwright.status !== 0) failedTier = true;
}

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ✖ ${line}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedTier || totals.failed > 0 ? 1 : 0);
