import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, sendJson, startTestServer, type TestServer } from '../../../test/helpers';
import type { CreatedAppPassword } from '@atrium/contracts';

const run = promisify(execFile);
/** The suites that must pass, in litmus's order (LITMUS_SUITES narrows them while working on one). */
const SUITES = (process.env.LITMUS_SUITES ?? 'basic copymove props locks http').split(' ');

/** One line of litmus's output per test: ` 3. mkcol................. pass` (or FAIL/WARNING/SKIPPED). */
export function litmusResults(output: string): { suite: string; test: string; result: string }[] {
  const results: { suite: string; test: string; result: string }[] = [];
  let suite = '';
  for (const line of output.split(/\r?\n|\r/)) {
    const start = /^-> running `([^']+)':/.exec(line);
    if (start) suite = start[1] ?? '';
    // Without a terminal litmus writes the test's name twice on its line: the last one carries the result.
    const test = /\d+\.\s+([\w-]+?)\.+\s*(pass|FAIL|SKIPPED|WARNING)/.exec(line);
    if (test) results.push({ suite, test: test[1] ?? '', result: test[2] ?? '' });
  }
  return results;
}

/**
 * Acceptance with a client nobody here wrote (docs/PRODUCT.md#webdav): Debian's litmus 0.13 against a real server,
 * signed in with an app password; every test of the suites passes.
 */
describe.each(dialects())('litmus (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  it(`passes every test of ${SUITES.join(', ')}`, { timeout: 180_000 }, async () => {
    const cookie = await server.signInAs({ owner_key: 'litmus-user' });
    const { password } = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'litmus' }),
      201,
    );
    const url = `${server.url}/remote.php/dav/files/litmus-user/Personal/`;
    // litmus writes debug.log and child.log into its working folder: a temporary one, not the checkout.
    const { stdout } = await run('litmus', [url, 'litmus-user', password], {
      cwd: tmpdir(),
      env: { ...process.env, TESTS: SUITES.join(' ') },
      timeout: 170_000,
    }).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }));
    const results = litmusResults(stdout);
    const failed = results.filter((r) => r.result === 'FAIL').map((r) => `${r.suite}/${r.test}`);
    if (failed.length > 0 || process.env.LITMUS_VERBOSE) console.warn(stdout);
    expect(failed).toEqual([]);
    for (const suite of SUITES) expect(results.filter((r) => r.suite === suite).length, suite).toBeGreaterThan(0);
    expect(stdout).not.toMatch(/aborted/);
  });
});
