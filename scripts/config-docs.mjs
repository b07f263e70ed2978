// Writes README.md's configuration table from the configuration schema (apps/server/src/config/), where
// each variable's description lives. `--check` only reports whether README.md is up to date (exit 1 if not).
// The unit test apps/server/src/config-docs.test.ts fails while they disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readmeFile = path.join(root, 'README.md');
const { withConfigTable, undocumentedVariables } = await tsImport(
  path.join(root, 'apps/server/src/config-docs.ts'),
  import.meta.url,
);

const missing = undocumentedVariables();
if (missing.length > 0) {
  console.error(`No description in apps/server/src/config/ for: ${missing.join(', ')} (add .describe('…'))`);
  process.exit(1);
}
const readme = readFileSync(readmeFile, 'utf8');
const updated = withConfigTable(readme);
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md configuration table is out of date: run node scripts/config-docs.mjs');
    process.exit(1);
  }
  console.log('README.md configuration table is up to date');
} else if (updated === readme) {
  console.log('README.md configuration table is up to date');
} else {
  writeFileSync(readmeFile, updated);
  console.log('README.md configuration table written');
}
