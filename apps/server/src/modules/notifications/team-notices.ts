import type { MemberRole } from '@atrium/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DropReceived, MemberChanged } from '../../events';
import type { NotificationDetails } from './notifications.repository';

/** How long arrivals through one file-drop link are gathered into one notice. */
export const DROP_NOTICE_WINDOW_MS = 5000;

const ROLE_NAME: Record<MemberRole, string> = { owner: 'an owner', editor: 'an editor', viewer: 'a viewer' };

/** "Alice made you an owner of Design" (docs/PRODUCT.md#notifications). */
export const roleChangeMessage = (change: Pick<MemberChanged, 'by' | 'role' | 'workspace'>): string =>
  `${change.by.name} made you ${ROLE_NAME[change.role]} of ${change.workspace.name}`;

/** "3 files arrived in Clients through your file-drop link". */
export const dropMessage = (count: number, folderName: string): string =>
  `${count} ${count === 1 ? 'file' : 'files'} arrived in ${folderName} through your file-drop link`;

type Send = (userId: string, message: string, details: NotificationDetails) => Promise<unknown>;

/**
 * Gathers arrivals through file-drop links: the first arrival through a link starts a window of `windowMs`; every
 * arrival through it until then is counted, and at its end the link's maker gets one notice with the count. Counting
 * happens synchronously in one process, so parallel uploads are each counted once.
 */
export function createDropNotices(deps: {
  windowMs: number;
  folder: (id: string) => Promise<{ name: string; workspaceId: string | null } | undefined>;
  send: Send;
  log: FastifyBaseLogger;
}) {
  const pending = new Map<string, { makerId: string; folderId: string; count: number; timer: NodeJS.Timeout }>();
  const inFlight = new Set<Promise<void>>();

  async function flush(linkId: string) {
    const batch = pending.get(linkId);
    if (!batch) return;
    pending.delete(linkId);
    clearTimeout(batch.timer);
    const folder = await deps.folder(batch.folderId);
    await deps.send(batch.makerId, dropMessage(batch.count, folder?.name || 'your folder'), {
      subject: { kind: 'folder', id: batch.folderId, workspaceId: folder?.workspaceId ?? null },
    });
  }

  const run = (linkId: string) => {
    const task = flush(linkId)
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not send a file-drop notice'))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };

  return {
    received(event: DropReceived): void {
      if (event.makerId === null) return;
      const batch = pending.get(event.linkId);
      if (batch) {
        batch.count += 1;
        return;
      }
      const timer = setTimeout(() => run(event.linkId), deps.windowMs);
      timer.unref();
      pending.set(event.linkId, { makerId: event.makerId, folderId: event.folderId, count: 1, timer });
    },
    /** Sends every gathered notice now (shutdown, tests). */
    async flushAll(): Promise<void> {
      for (const linkId of [...pending.keys()]) run(linkId);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
