import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The container tier (`.ci/run` runs it after `npm test`): deploy/container/build.sh builds the image (mmdebstrap,
 * podman; cached between runs) and podman runs it as deploy/compose.yaml declares it. Needs podman, runc,
 * mmdebstrap, TEST_DATABASE_URL and TEST_REDIS_URL. compose.test.ts, the file's static checks, is in the unit tier.
 */
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..'),
  test: {
    name: 'container',
    environment: 'node',
    include: ['apps/server/test/container/container.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
