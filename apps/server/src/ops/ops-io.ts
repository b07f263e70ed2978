import { spawn } from 'node:child_process';
import { lchown, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

// What the backup and restore commands share: the operator's error and small file and process helpers.

/** A refusal or failure with a message meant for the operator (exit code 1, no stack trace). */
export class OpsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpsError';
  }
}

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** The entries of a folder, or [] when it does not exist. */
export async function entriesOf(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
}

export async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );
}

/** Runs a PostgreSQL client tool; fails with its own error output. */
export function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new OpsError(
          error.code === 'ENOENT'
            ? `${command} not found: install the PostgreSQL client tools (Debian: apt-get install postgresql-client)`
            : `${command}: ${error.message}`,
        ),
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new OpsError(`${command} failed (exit ${code}):\n${stderr.trim()}`)),
    );
  });
}

/** The owner (uid, gid) of `target`, or of its nearest existing parent folder when it does not exist yet. */
export async function ownerOf(target: string): Promise<{ uid: number; gid: number }> {
  let current = path.resolve(target);
  for (;;) {
    try {
      const { uid, gid } = await stat(current);
      return { uid, gid };
    } catch (error) {
      const parent = path.dirname(current);
      if (!isMissing(error) || parent === current) throw error;
      current = parent;
    }
  }
}

/** Gives `dir` and everything in it to `owner` (symbolic links themselves, not what they point to). */
export async function chownTree(dir: string, owner: { uid: number; gid: number }): Promise<void> {
  await lchown(dir, owner.uid, owner.gid);
  for (const entry of await readdir(dir, { recursive: true }))
    await lchown(path.join(dir, String(entry)), owner.uid, owner.gid);
}
