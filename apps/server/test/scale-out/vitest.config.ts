import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The scale-out tier (`npm test` runs it after the build, on its own: it starts nginx,
 * two server processes and 1,000 streams, so it must not share the CPU with other tests).
 * Needs the built server bundle, nginx, TEST_DATABASE_URL and TEST_REDIS_URL.
 */
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..'),
  test: {
    name: 'scale-out',
    environment: 'node',
    include: ['apps/server/test/scale-out/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
