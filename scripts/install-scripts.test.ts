import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// package.json `allowScripts` names every dependency that may (true) or may not (false) run an install script,
// before npm refuses undeclared ones by default (docs/DEPLOY.md, "Production install"). A new dependency with an
// install script fails here until it is declared.
describe('install scripts', () => {
  it('every dependency with an install script is declared in package.json allowScripts', () => {
    const result = spawnSync('npm', ['install-scripts', 'ls', '--json'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const pending = (JSON.parse(result.stdout) as { allowScripts: { name: string }[] }).allowScripts.map(
      (entry) => entry.name,
    );
    expect(pending).toEqual([]);
  });
});
