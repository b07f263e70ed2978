import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { isSupportedNode } from './scripts/runtime.mjs';

// better-sqlite3 13 crashes on Node 20 (end of life): stop with a clear message instead of a segmentation fault.
if (!isSupportedNode()) {
  throw new Error(
    `Node ${process.versions.node} is not supported (22.22+ or 24). Run the tests with \`npm test\` or \`node scripts/run.mjs vitest …\`, which use a supported Node.`,
  );
}

/**
 * Test tiers (all run by `npm test`):
 * - unit: pure code beside its source (`*.test.ts`), node environment
 * - web: React components and hooks (`apps/web/**\/*.test.tsx?`), jsdom
 * - integration: the real server on a random port with a real database and real files (`*.int.test.ts`)
 * - clients: integration tests driving a WebDAV or Nextcloud client nobody here wrote (litmus, nextcloudcmd), one file
 *   at a time after the others: nothing else runs beside them
 * End-to-end tests live in e2e/ and run with Playwright.
 *
 * Files run two at a time at least (Vitest's default on two cores is one): the integration tier mostly waits on its
 * servers, databases and child processes, and ran in 12–14 minutes instead of 20 on this machine kind.
 */
const CLIENT_FILES = [
  'apps/server/src/modules/dav/litmus.int.test.ts',
  'apps/server/src/modules/nextcloud/nextcloudcmd.int.test.ts',
];

export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            // deploy/compose.yaml's shape (the container tier, apps/server/test/container/vitest.config.ts, runs it).
            'apps/server/test/container/compose.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/server/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', ...CLIENT_FILES],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'clients',
          environment: 'node',
          include: CLIENT_FILES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
