// `node scripts/run.mjs <command> [args…]`: runs a command (a package binary such as vitest or tsx, or `node`)
// on a supported Node (scripts/runtime.mjs), e.g. `node scripts/run.mjs vitest run apps/server` or
// `node scripts/run.mjs node bench/files-transfer.mjs` on a machine whose own node is older.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './lib.mjs';
import { ensureSupportedNode } from './runtime.mjs';

await ensureSupportedNode();
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/run.mjs <command> [args…]');
  process.exit(2);
}
// The project's package binaries, as in `npm run` scripts.
const PATH = [path.join(root, 'node_modules', '.bin'), process.env.PATH ?? ''].join(path.delimiter);
const child = spawn(command === 'node' ? process.execPath : command, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH },
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  console.error(`✖ ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
