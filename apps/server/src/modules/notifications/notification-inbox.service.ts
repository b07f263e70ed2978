import type { NotificationInbox, NotificationUnread } from '@atrium/contracts';
import { AppError } from '../../errors';
import { presentNotification } from './notification-frames';
import type { NotificationReadsRepository } from './notification-reads.repository';

export interface NotificationInboxDeps {
  reads: NotificationReadsRepository;
  /** The highest notification id stored so far: "Mark all as read" and "Clear all" reach it. */
  latestSeq: () => Promise<number>;
}

/**
 * Each person's list as the server keeps it (docs/PRODUCT.md#notifications): read state and "Clear all" are per
 * person and the same on every device. A notification someone may not see is 404, as for one that does not exist.
 */
export const createNotificationInbox = ({ reads, latestSeq }: NotificationInboxDeps) => {
  const unreadOf = async (userId: string): Promise<NotificationUnread> => ({
    unread: await reads.countUnread(userId, await reads.marks(userId)),
  });

  return {
    async page(userId: string, limit: number, cursor: string | undefined): Promise<NotificationInbox> {
      const marks = await reads.marks(userId);
      const rows = await reads.page(userId, marks.clearedThrough, limit + 1, cursor ? Number(cursor) : undefined);
      const page = rows.slice(0, limit);
      const readOnes = await reads.readAmong(
        userId,
        page.filter((row) => row.seq > marks.readThrough).map((row) => row.seq),
      );
      const last = page.at(-1);
      return {
        items: page.map((row) => ({
          ...presentNotification(row),
          read: row.seq <= marks.readThrough || readOnes.has(row.seq),
        })),
        unread: await reads.countUnread(userId, marks),
        nextCursor: rows.length > limit && last ? String(last.seq) : null,
      };
    },

    async markRead(userId: string, id: string): Promise<NotificationUnread> {
      const seq = Number(id);
      const marks = await reads.marks(userId);
      if (!(await reads.findVisible(userId, seq, marks.clearedThrough))) {
        throw new AppError('NOT_FOUND', 'No such notification.');
      }
      if (seq > marks.readThrough) await reads.markRead(userId, seq);
      return unreadOf(userId);
    },

    async markAllRead(userId: string): Promise<NotificationUnread> {
      await reads.advance(userId, 'read_through', await latestSeq());
      return unreadOf(userId);
    },

    async clear(userId: string): Promise<NotificationUnread> {
      const through = await latestSeq();
      await reads.advance(userId, 'cleared_through', through);
      return unreadOf(userId);
    },
  };
};

export type NotificationInboxService = ReturnType<typeof createNotificationInbox>;
