import { displayNameOf } from '../../auth/actor';
import type { FastifyBaseLogger } from 'fastify';
import {
  NOTIFICATION_MESSAGE_MAX,
  NOTIFICATION_TEXTS,
  WORKSPACE_MESSAGE_LIMITS,
  type MemberRole,
  type Notification,
  type NotificationHistoryEntry,
  type NotificationHistoryPage,
  type PushSubscriptionInput,
  type SubscribeResponse,
} from '@atrium/contracts';
import type { PushSender } from '../../adapters/push/web-push-sender';
import type { MemberChanged } from '../../events';
import { AppError } from '../../errors';
import type { RateLimiter } from '../../lib/rate-limiter';
import { requireAdmin } from '../../auth/policies/admin';
import { requireWorkspaceAudience } from '../../auth/policies/workspace';
import type { SessionUser } from '../auth';
import { presentNotification, type NotificationHub } from './notification-hub';
import {
  audienceOf,
  presentAudience,
  type Audience,
  type NotificationDetails,
  type NotificationRow,
  type NotificationsRepository,
} from './notifications.repository';
import { roleChangeMessage } from './team-notices';

/** How many push deliveries run at once per publish. */
const PUSH_CONCURRENCY = 8;
/** A subscription whose sends failed this many times in a row is removed (404/410 remove it at once). */
export const PUSH_MAX_CONSECUTIVE_FAILURES = 5;

export const welcomeMessage = (user: SessionUser): string =>
  `Welcome to Atrium, ${displayNameOf(user)}! Your workspace is ready.`;

/**
 * The hub's `onDelivered`: adds this instance's live deliveries of a published notification to its row, so the
 * admin's history shows the sum over every instance. Welcomes and share notices are not counted.
 */
export const countLiveDeliveries =
  (repo: Pick<NotificationsRepository, 'addLiveDeliveries'>, log: FastifyBaseLogger) =>
  (row: NotificationRow, streams: number): void => {
    if ((row.type !== 'admin' && row.type !== 'workspace') || streams === 0) return;
    repo
      .addLiveDeliveries(row.seq, streams)
      .catch((error: unknown) => log.warn({ err: error }, 'could not count live deliveries'));
  };

export interface NotificationsServiceDeps {
  repo: NotificationsRepository;
  hub: Pick<NotificationHub, 'announce'>;
  push: PushSender;
  log: FastifyBaseLogger;
  /** Counts workspace messages per sender and per workspace (WORKSPACE_MESSAGE_LIMITS). */
  limiter: Pick<RateLimiter, 'consume'>;
}

/**
 * Notification rules: who may publish and count, what a message may be,
 * store first then deliver (live streams through the hub, Web Push in the
 * background), the one welcome per user.
 */
export const createNotificationsService = ({ repo, hub, push, log, limiter }: NotificationsServiceDeps) => {
  const inFlight = new Set<Promise<void>>();

  async function pushAll(row: NotificationRow) {
    const targets = await repo.listPushSubscriptions(audienceOf(row));
    const payload = JSON.stringify(presentNotification(row));
    let next = 0;
    const tally = { sent: 0, failed: 0 };
    const worker = async () => {
      while (next < targets.length) {
        const target = targets[next++];
        if (!target) break;
        const outcome = await push.send({ endpoint: target.endpoint, keys: target }, payload);
        tally[outcome.status === 'sent' ? 'sent' : 'failed'] += 1;
        if (outcome.status === 'gone') {
          await repo.deletePushSubscription(target.id);
          log.info({ endpoint: new URL(target.endpoint).origin }, 'removed an expired push subscription');
        } else if (outcome.status === 'failed') {
          const endpoint = new URL(target.endpoint).origin;
          log.warn({ endpoint, reason: outcome.reason }, 'push delivery failed');
          if (await repo.recordPushFailure(target.id, PUSH_MAX_CONSECUTIVE_FAILURES)) {
            log.info({ endpoint }, 'removed a push subscription that kept failing');
          }
        } else if (target.failed_sends > 0) {
          await repo.recordPushSuccess(target.id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUSH_CONCURRENCY, targets.length) }, worker));
    // The history counts published notifications only (welcomes and share notices are not listed).
    if (row.type === 'admin' || row.type === 'workspace') await repo.addPushOutcome(row.seq, tally.sent, tally.failed);
  }

  /** Stored first, then announced to every instance, then pushed to browsers in the background. */
  async function deliver(row: NotificationRow) {
    // Stored already: if the bus is down, streams still get it by replay on their next reconnect.
    await hub.announce(row).catch((error: unknown) => log.error({ err: error }, 'could not announce a notification'));
    const task = pushAll(row)
      .catch((error: unknown) => log.error({ err: error }, 'web push fan-out failed'))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }

  /**
   * Checks a publish request without sending it: who may publish to the audience (everyone or one person:
   * admins; one workspace's members: its owners, or admins; other members 403, anyone else 404 as for a missing
   * workspace) and the message (non-blank, at most NOTIFICATION_MESSAGE_MAX characters). Publishing now and
   * scheduling share it.
   */
  async function prepare(
    user: SessionUser,
    input: { message: string; workspaceId?: string | undefined; userId?: string | undefined },
  ): Promise<{ message: string; audience: Audience }> {
    let audience: Audience = { type: 'all' };
    if (input.workspaceId !== undefined) {
      const workspace = await requireWorkspaceAudience(user, input.workspaceId, (id) => repo.workspaceFor(id, user.id));
      audience = { type: 'workspace', id: workspace.id };
    } else {
      requireAdmin(user, 'notifications');
      if (input.userId !== undefined) {
        const id = await repo.userIdOf(input.userId);
        if (!id) throw new AppError('USER_NOT_FOUND', 'No one with that id has signed in.');
        audience = { type: 'user', id };
      }
    }
    const message = input.message.trim();
    if (!message) throw new AppError('BAD_REQUEST', NOTIFICATION_TEXTS.blankMessage);
    if ([...message].length > NOTIFICATION_MESSAGE_MAX) {
      throw new AppError('BAD_REQUEST', `Messages can be at most ${NOTIFICATION_MESSAGE_MAX} characters.`);
    }
    return { message, audience };
  }

  /**
   * A message to a workspace's members is typed `workspace`, never `admin`, and names the workspace and the sender
   * (docs/PRODUCT.md#workspace-messages), whoever sends it.
   */
  async function shapeFor(audience: Audience, senderId: string | null) {
    if (audience.type !== 'workspace') return { type: 'admin' as const };
    const { workspaceName, senderName } = await repo.namesFor(audience.id, senderId);
    const details: NotificationDetails = {
      workspace: { id: audience.id, name: workspaceName ?? 'a workspace' },
      sender: { name: senderName ?? 'a member' },
      subject: { kind: 'workspace', id: audience.id, workspaceId: audience.id },
    };
    return { type: 'workspace' as const, details };
  }

  /**
   * Counts one workspace message of `senderId` to `workspaceId` before it is stored (one atomic count each, so
   * parallel sends cannot pass the limit); 429 RATE_LIMITED over either limit.
   */
  async function countWorkspaceMessage(senderId: string, workspaceId: string) {
    const { perSender, perWorkspace, windowMs, message } = WORKSPACE_MESSAGE_LIMITS;
    await limiter.consume({ key: `workspace-message:sender:${senderId}`, max: perSender, windowMs, message });
    await limiter.consume({ key: `workspace-message:workspace:${workspaceId}`, max: perWorkspace, windowMs, message });
  }

  return {
    async subscribe(user: SessionUser, subscription: PushSubscriptionInput | undefined): Promise<SubscribeResponse> {
      const refusal = subscription ? await push.refusal(subscription.endpoint) : null;
      if (refusal) throw new AppError('BAD_REQUEST', refusal);
      await repo.addSubscriber(user.id);
      // An endpoint another user registered is not taken over without its keys: `push` is then false.
      const stored = subscription
        ? await repo.upsertPushSubscription(user.id, {
            endpoint: subscription.endpoint,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
          })
        : false;
      return { subscribed: true, userId: user.ownerKey, push: stored };
    },

    prepare,

    /** Publishes to an audience now, after the checks of `prepare`. */
    async publish(
      user: SessionUser,
      input: { message: string; workspaceId?: string | undefined; userId?: string | undefined },
    ): Promise<Notification> {
      const { message, audience } = await prepare(user, input);
      if (audience.type === 'workspace') await countWorkspaceMessage(user.id, audience.id);
      const shape = await shapeFor(audience, user.id);
      const { row } = await repo.insert({ message, audience, createdBy: user.id, ...shape });
      await deliver(row);
      return presentNotification(row);
    },

    /**
     * Publishes a message checked earlier (`prepare`, e.g. when it was scheduled) for `createdBy`. With a dedupe
     * key already stored, nothing is sent again and `created` is false.
     */
    async publishPrepared(values: {
      message: string;
      audience: Audience;
      createdBy: string | null;
      dedupeKey: string;
    }): Promise<{ created: boolean; notification: Notification }> {
      const { row, created } = await repo.insert({ ...values, ...(await shapeFor(values.audience, values.createdBy)) });
      if (created) await deliver(row);
      return { created, notification: presentNotification(row) };
    },

    /** Subscribed users (the spec's count) and browsers subscribed to Web Push. */
    async countSubscribers(): Promise<{ count: number; pushBrowsers: number }> {
      const [count, pushBrowsers] = await Promise.all([repo.countSubscribers(), repo.countPushSubscriptions()]);
      return { count, pushBrowsers };
    },

    async feed(user: SessionUser, limit: number): Promise<Notification[]> {
      return (await repo.listForUser(user.id, limit)).map(presentNotification);
    },

    /** The user's one welcome notification: created (and delivered) on the first call only. */
    async welcome(user: SessionUser): Promise<{ created: boolean; notification: Notification }> {
      const { row, created } = await repo.insert({
        message: welcomeMessage(user),
        type: 'welcome',
        audience: { type: 'user', id: user.id },
        createdBy: null,
        dedupeKey: `welcome:${user.id}`,
      });
      if (created) await deliver(row);
      return { created, notification: presentNotification(row) };
    },

    /**
     * A notification for one user only (e.g. "Alice shared budget.xlsx with you"): stored, sent live to that user's
     * streams and pushed to that user's browsers. The message is the server's own text, not user input; `details`
     * names what it opens.
     */
    async notifyUser(
      userId: string,
      message: string,
      createdBy: string | null,
      details?: NotificationDetails,
    ): Promise<Notification> {
      const { row } = await repo.insert({
        message,
        type: 'other',
        audience: { type: 'user', id: userId },
        createdBy,
        ...(details ? { details } : {}),
      });
      await deliver(row);
      return presentNotification(row);
    },

    /**
     * Tells `userId` who added (or invited) them to which workspace, with what role: a `membership` notice to them
     * alone, live and by Web Push (docs/PRODUCT.md#workspace-members).
     */
    async notifyMembership(values: {
      userId: string;
      workspace: { id: string; name: string };
      by: { id: string; name: string };
      role: MemberRole;
      state: 'added' | 'invited';
    }): Promise<Notification> {
      const { workspace, by, role, state } = values;
      const { row } = await repo.insert({
        message: `${by.name} ${state === 'added' ? 'added you to' : 'invited you to'} ${workspace.name} (${role})`,
        type: 'membership',
        audience: { type: 'user', id: values.userId },
        createdBy: by.id,
        details: {
          workspace,
          sender: { name: by.name },
          membership: { role, state },
          subject: { kind: 'workspace', id: workspace.id, workspaceId: workspace.id },
        },
      });
      await deliver(row);
      return presentNotification(row);
    },

    /** "Alice made you an owner of Design": a `membership` notice (state `changed`) to the member alone. */
    async notifyRoleChange(change: MemberChanged): Promise<Notification> {
      const { workspace, by, role } = change;
      const { row } = await repo.insert({
        message: roleChangeMessage(change),
        type: 'membership',
        audience: { type: 'user', id: change.userId },
        createdBy: by.id,
        details: {
          workspace,
          sender: { name: by.name },
          membership: { role, state: 'changed' },
          subject: { kind: 'workspace', id: workspace.id, workspaceId: workspace.id },
        },
      });
      await deliver(row);
      return presentNotification(row);
    },

    /** Published notifications, newest first, with who published them, their audience and delivery counts. */
    async history(limit: number, cursor: string | undefined): Promise<NotificationHistoryPage> {
      const rows = await repo.listPublished(limit + 1, cursor === undefined ? undefined : Number(cursor));
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        entries: page.map((row): NotificationHistoryEntry => ({
          id: String(row.seq),
          message: row.message,
          publishedAt: row.created_at,
          publishedBy: row.publisher_key ? { userId: row.publisher_key, name: row.publisher_name } : null,
          audience: presentAudience(row),
          deliveredLive: Number(row.delivered_live),
          pushSent: Number(row.push_sent),
          pushFailed: Number(row.push_failed),
        })),
        nextCursor: rows.length > limit && last ? String(last.seq) : null,
      };
    },

    vapidPublicKey: () => push.publicKey,

    /** Waits for Web Push deliveries still running (shutdown, tests). */
    async drain(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
};

export type NotificationsService = ReturnType<typeof createNotificationsService>;
