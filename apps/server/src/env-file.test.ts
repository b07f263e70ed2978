import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EnvSchema } from './config';
import { loadDotEnv } from './env-file';

const dir = mkdtempSync(path.join(tmpdir(), 'atrium-env-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('.env', () => {
  it('fills in what the real environment does not set; real variables win', () => {
    const file = path.join(dir, '.env');
    writeFileSync(file, '# comment\nPORT=4000\nDATA_DIR="/srv/atrium data"\nLOG_LEVEL=debug\n');
    const env: NodeJS.ProcessEnv = { PORT: '5000' };
    expect(loadDotEnv(env, file)).toEqual(['DATA_DIR', 'LOG_LEVEL']);
    expect(env).toEqual({ PORT: '5000', DATA_DIR: '/srv/atrium data', LOG_LEVEL: 'debug' });
  });

  it('is optional', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(loadDotEnv(env, path.join(dir, 'missing.env'))).toEqual([]);
    expect(env).toEqual({});
  });

  it('.env.example lists every variable the server reads, and nothing else', () => {
    const example = readFileSync(path.resolve(import.meta.dirname, '../../../.env.example'), 'utf8');
    const listed = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect([...listed].sort()).toEqual(Object.keys(EnvSchema.shape).sort());
  });
});
