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
 * End-to-end tests live in e2e/ and run with Playwright.
 */
export default defineConfig({
  test: {
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
          exclude: ['**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
