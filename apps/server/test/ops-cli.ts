import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TEST_ADMIN_PASSWORD } from './helpers';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'apps/server/src/ops/cli.ts');
// By path: the tools run in an empty working folder (no stray .env), where `--import tsx` would not resolve.
const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** Runs the ops CLI (`npm run backup|restore|reindex|clear-lockout -- …`) as the operator would: same entry, same configuration rules. */
export function ops(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', tsx, cli, ...args], {
      cwd: mkdtempSync(path.join(tmpdir(), 'atrium-ops-cwd-')),
      env: { PATH: process.env.PATH, NODE_ENV: 'test', ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
