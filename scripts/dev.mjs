// `npm run dev`: the API server (tsx watch, port 3001) and the Vite dev server
// with hot reload (port 3000, proxying /api and /public/api to the server).
import { spawn } from 'node:child_process';
import { ensureDependencies, root } from './lib.mjs';
import { ensureSupportedNode } from './runtime.mjs';

// Node 22 or 24; on an older machine node this runs again under the one from npm (scripts/runtime.mjs).
await ensureSupportedNode();

ensureDependencies();

const children = [
  spawn('npm', ['run', 'dev', '-w', '@atrium/server'], {
    cwd: root,
    stdio: 'inherit',
    env: { PORT: '3001', PUBLIC_URL: 'http://localhost:3000', ...process.env },
  }),
  spawn('npm', ['run', 'dev', '-w', '@atrium/web'], { cwd: root, stdio: 'inherit', env: process.env }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => (stop(), process.exit(code ?? 0)));
