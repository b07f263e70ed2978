import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('licence', () => {
  it('LICENSE is the complete GNU AGPL v3 in the FSF plain-text form', () => {
    const text = read('LICENSE');
    const lines = text.split('\n');
    expect(lines.slice(0, 2).map((line) => line.trim())).toEqual([
      'GNU AFFERO GENERAL PUBLIC LICENSE',
      'Version 3, 19 November 2007',
    ]);
    // 661 lines, the last one ending with a newline.
    expect(lines).toHaveLength(662);
    expect(lines.at(-1)).toBe('');
    expect(text).toContain('13. Remote Network Interaction; Use with the GNU General Public License.');
    expect(text.trimEnd().endsWith('<https://www.gnu.org/licenses/>.')).toBe(true);
  });

  it.each([
    'package.json',
    'apps/server/package.json',
    'apps/web/package.json',
    'packages/assistant/package.json',
    'packages/contracts/package.json',
  ])('%s declares AGPL-3.0-or-later', (file) => {
    expect((JSON.parse(read(file)) as { license?: string }).license).toBe('AGPL-3.0-or-later');
  });

  it('NOTICE lists every model file of ADR 0004, and says the image-analysis model has no licence', () => {
    const notice = read('NOTICE');
    const adr = read('docs/adr/0004-local-ai-model-licences.md');
    const modelFiles = [...adr.matchAll(/\(`(models?\/[^`]+)`/g)].map((match) => match[1]);
    expect(modelFiles.length).toBeGreaterThanOrEqual(5);
    for (const file of modelFiles) expect(notice).toContain(file?.replace(/ \+ .*/, ''));
    expect(notice).toMatch(/LICENCE: NONE/);
    expect(notice).toContain('AGPL-3.0-or-later');
  });
});
