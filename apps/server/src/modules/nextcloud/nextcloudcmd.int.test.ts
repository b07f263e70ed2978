import { execFile } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Debian's `nextcloudcmd` (the Nextcloud desktop client's command line) against Atrium: what it asks for, in order.
 * The WebDAV tree and app passwords come from other modules; this test holds the discovery part: the client
 * accepts `/status.php` and goes on to the capabilities and the DAV root (it would stop at a server it refuses). Debian's `nextcloud-desktop-cmd`, installed by `.ci/run`.
 */
const run = (args: string[]) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      'nextcloudcmd',
      args,
      { timeout: 60_000, env: { ...process.env, HOME: tmpdir() } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });

describe('nextcloudcmd discovers Atrium', () => {
  let server: TestServer;
  let dir: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    server.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      response.on('finish', () => seen.push(`${request.method} ${request.url?.split('?')[0]} ${response.statusCode}`));
    });
    dir = await mkdtemp(join(tmpdir(), 'ncmd-'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('accepts /status.php and asks for the capabilities and the DAV tree next', async () => {
    const result = await run(['--non-interactive', '-u', 'nobody', '-p', 'wrong', dir, server.url]);
    // The client read the version from /status.php, parsed the capabilities (v1, XML), was refused as `nobody`
    // with a wrong password, and went on to list the DAV root: it accepts Atrium as a Nextcloud server.
    expect(result.output).toContain('Server "28.0.4.1"');
    expect(seen.slice(0, 3)).toEqual([
      'GET /status.php 200',
      'GET /ocs/v1.php/cloud/capabilities 200',
      'GET /ocs/v1.php/cloud/user 401',
    ]);
    expect(seen.some((line) => line.startsWith('PROPFIND /remote.php/dav/files/nobody/'))).toBe(true);
    // Nothing synced: the DAV tree refused (or is not there yet), so the folder stays empty but for the journal.
    expect(result.code).not.toBe(0);
  });
});
