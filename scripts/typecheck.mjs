// Type-checks every workspace (each has its own tsconfig: DOM for the web app, Node for the rest), as many at a time as
// there are cores, two at least (each `tsc` is one thread: 79 s one after another on two cores, 51–61 s two at a time).
// Each project's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const projects = ['apps/server', 'apps/web', 'e2e', 'packages/contracts', 'packages/assistant', 'tsconfig.tools.json'];

/** @param {string} project @returns {Promise<boolean>} whether it type-checks */
const check = (project) =>
  new Promise((resolve) => {
    const child = spawn('npx', ['tsc', '--noEmit', '-p', project, '--pretty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) console.error(`typecheck failed: ${project}`);
      resolve(code === 0);
    });
  });

const queue = [...projects];
let failed = false;
await Promise.all(
  Array.from({ length: Math.max(2, availableParallelism()) }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) if (!(await check(project))) failed = true;
  }),
);
process.exit(failed ? 1 : 0);
