import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');

// CHANGELOG.md is what an operator reads before an upgrade (docs/DEPLOY.md, "Upgrades and rolling restarts").
describe('CHANGELOG.md', () => {
  it('names every database migration', () => {
    const migrations = readdirSync(path.join(root, 'apps/server/src/db/migrations'))
      .filter((file) => /^\d{4}-.+\.ts$/.test(file) && !file.includes('.test.'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(migrations.length).toBeGreaterThan(30);
    expect(migrations.filter((name) => !changelog.includes(`\`${name}\``))).toEqual([]);
  });

  it("has a section for the server's version", () => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')) as {
      version: string;
    };
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(changelog).toMatch(new RegExp(`^## ${version.replaceAll('.', '\\.')} — \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });
});
