import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../lib/time';
import { backup, isBackupFolder, type OpsConfig } from './backup';

// Scheduled backups for a single-machine install (docs/DEPLOY.md, "Backups and restore"): the same backup as
// `npm run backup`, into `BACKUP_DIR/atrium-<UTC time>`, keeping the newest `BACKUP_KEEP`.

const PREFIX = 'atrium-';

/** `atrium-2026-11-28T04-00-00Z`: sortable, and valid on every file system. */
const folderName = (at: Date) =>
  `${PREFIX}${at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-')}`;

export function createScheduledBackups(
  config: OpsConfig,
  schedule: { dir: string; keep: number },
  clock: Clock,
): { run(): Promise<{ folder: string; removed: string[] }> } {
  return {
    /** Takes one backup, then removes the oldest complete ones beyond `keep` (never anything else in the folder). */
    async run() {
      const folder = path.join(schedule.dir, folderName(clock.now()));
      await backup(config, folder);
      const ours: string[] = [];
      for (const name of (await readdir(schedule.dir)).filter((entry) => entry.startsWith(PREFIX)).sort())
        if (await isBackupFolder(path.join(schedule.dir, name))) ours.push(name);
      const removed = ours.slice(0, Math.max(0, ours.length - schedule.keep));
      for (const name of removed) await rm(path.join(schedule.dir, name), { recursive: true, force: true });
      return { folder, removed };
    },
  };
}
