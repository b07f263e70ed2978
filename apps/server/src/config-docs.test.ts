import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvSchema } from './config';
import { configTable, TABLE_END, TABLE_START, undocumentedVariables, withConfigTable } from './config-docs';

const readme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'), 'utf8');

describe('README configuration table', () => {
  it('describes every variable of the schema', () => {
    expect(undocumentedVariables()).toEqual([]);
  });

  it('is the table generated from the schema (run `node scripts/config-docs.mjs` to update it)', () => {
    expect(withConfigTable(readme)).toBe(readme);
  });

  it('has one row per variable, and no configuration row outside it', () => {
    const inside = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END));
    for (const name of Object.keys(EnvSchema.shape)) expect(inside).toContain(`| \`${name}\` |`);
    const outside = readme.replace(inside, '');
    const stranded = outside.split('\n').filter((line) => /^\| `[A-Z][A-Z0-9_]+`/.test(line));
    expect(stranded).toEqual([]);
    expect(inside).toContain('| `SHUTDOWN_TIMEOUT_MS` | `10000` |');
  });

  it('renders defaults from the schema unless a text is given', () => {
    const table = configTable({
      A_NUMBER: z.coerce.number().default(5).describe('a number'),
      A_SECRET: z.string().optional().describe('a | pipe'),
      A_SIZE: z.coerce.number().default(1024).meta({ description: 'bytes', defaultText: '1 KiB' }),
      NO_TEXT: z.string().optional(),
    });
    expect(table.split('\n').slice(2)).toEqual([
      '| `A_NUMBER` | `5` | a number |',
      '| `A_SECRET` | unset | a \\| pipe |',
      '| `A_SIZE` | 1 KiB | bytes |',
      '| `NO_TEXT` | unset |  |',
    ]);
    expect(undocumentedVariables({ NO_TEXT: z.string().optional() })).toEqual(['NO_TEXT']);
  });
});
