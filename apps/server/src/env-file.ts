import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Reads `.env` from the working folder (if there is one) into `target`.
 * Variables already set in the real environment win over the file.
 * Returns the names taken from the file.
 */
export function loadDotEnv(target: NodeJS.ProcessEnv = process.env, file = path.resolve('.env')): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const taken: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined || target[name] !== undefined) continue;
    target[name] = value;
    taken.push(name);
  }
  return taken;
}
