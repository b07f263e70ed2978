// `npm run prune-gpu-binaries`: removes node-llama-cpp's GPU builds from package-lock.json after npm wrote them back
// (a new lock or a node-llama-cpp upgrade), then `npm install` takes them out of node_modules. README, "AI".
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GPU_BINARY } from './gpu-binaries.mjs';
import { root } from './lib.mjs';

const file = path.join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pruned = Object.keys(lock.packages).filter((key) => GPU_BINARY.test(key));
lock.packages = Object.fromEntries(Object.entries(lock.packages).filter(([key]) => !GPU_BINARY.test(key)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(pruned.length ? `pruned ${pruned.join(', ')}; now run npm install` : 'nothing to prune');
