// Type-checks every workspace (each has its own tsconfig: DOM for the web app, Node for the rest).
import { spawnSync } from 'node:child_process';

const projects = ['packages/contracts', 'packages/assistant', 'apps/server', 'apps/web', 'e2e', 'tsconfig.tools.json'];
let failed = false;
for (const project of projects) {
  const result = spawnSync('npx', ['tsc', '--noEmit', '-p', project, '--pretty'], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed = true;
    console.error(`typecheck failed: ${project}`);
  }
}
process.exit(failed ? 1 : 0);
