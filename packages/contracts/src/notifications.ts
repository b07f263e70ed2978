import { z } from 'zod';
import { endpoint } from './endpoint';

/** Longest message an admin may publish (characters). Keeps a Web Push payload well under 4 KB. */
export const NOTIFICATION_MESSAGE_MAX = 1000;

/** The notification texts users see (docs/PRODUCT.md#notification-messages). */
export const NOTIFICATION_TEXTS = {
  blankMessage: 'Please enter a message to send',
  adminOnly: 'Only admin users can publish notifications',
  publishFailed: 'Failed to publish notification',
  noBrowserSupport: 'This browser does not support notifications',
  permissionDenied: 'Notification permission denied',
  subscribeFailed: 'Failed to subscribe to notifications',
  subscribeAtLogin: 'Could not subscribe to notifications',
  parseFailed: 'Error receiving notification',
} as const;

/**
 * `admin`: an announcement from an admin to everyone or one person; `workspace`: a message to one workspace's
 * members (names the workspace and the sender); `membership`: "Eve added you to …" / "Eve invited you to …"
 * (docs/PRODUCT.md#notifications).
 */
export const NotificationType = z
  .enum(['welcome', 'admin', 'other', 'workspace', 'membership'])
  .meta({ id: 'NotificationType' });
export type NotificationType = z.infer<typeof NotificationType>;

/**
 * What a notice is about, so the list can open it (docs/PRODUCT.md#notifications): a shared file (the viewer), a
 * folder (a shared folder, a file drop's folder) or a workspace. `workspaceId` is the item's workspace (null: a
 * personal space).
 */
export const NotificationSubject = z
  .object({
    kind: z.enum(['file', 'folder', 'workspace']),
    id: z.string(),
    workspaceId: z.string().nullable(),
  })
  .meta({ id: 'NotificationSubject' });
export type NotificationSubject = z.infer<typeof NotificationSubject>;

/** A notification (docs/PRODUCT.md#notifications). Also the `data:` of every event on the stream. */
export const Notification = z
  .object({
    id: z.string().describe('Monotonic sequence number as text; also the SSE event id'),
    message: z.string(),
    timestamp: z.string().describe('ISO-8601, when the server stored it'),
    type: NotificationType,
    workspace: z
      .object({ id: z.string(), name: z.string() })
      .optional()
      .describe('The workspace a `workspace` message was sent to, or a `membership` notice is about'),
    sender: z
      .object({ name: z.string() })
      .optional()
      .describe('Who sent the `workspace` message, or added or invited the person (`membership`)'),
    membership: z
      .object({
        role: z.enum(['owner', 'editor', 'viewer']),
        state: z
          .enum(['added', 'invited', 'changed'])
          .describe('added: a member now (can leave); invited: accept or decline; changed: their role changed'),
      })
      .optional()
      .describe('For `membership` notices'),
    subject: NotificationSubject.optional().describe('What the notice is about: the item it opens'),
    read: z
      .boolean()
      .optional()
      .describe("The signed-in person's read state, kept by the server (GET /public/api/notifications/inbox)"),
  })
  .meta({ id: 'Notification' });

/** How many workspace messages one sender, and one workspace, may send per window (docs/PRODUCT.md#workspace-messages). */
export const WORKSPACE_MESSAGE_LIMITS = {
  perSender: 10,
  perWorkspace: 20,
  windowMs: 60 * 60 * 1000,
  message: 'Too many messages to workspace members. Please wait before sending another.',
} as const;

/** "From Eve Example in Atrium Security Team": who sent a workspace message, and where. */
export const workspaceMessageSource = (notification: Pick<Notification, 'workspace' | 'sender'>): string | null =>
  notification.workspace ? `From ${notification.sender?.name ?? 'a member'} in ${notification.workspace.name}` : null;
export type Notification = z.infer<typeof Notification>;

export const NotificationFeed = z.array(Notification).meta({ id: 'NotificationFeed' });
export type NotificationFeed = z.infer<typeof NotificationFeed>;

export const NotificationFeedQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const NOTIFICATION_INBOX_PAGE_MAX = 100;

/** GET /public/api/notifications/inbox: one page of the signed-in person's list, newest first. */
export const NotificationInboxQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'Use the nextCursor of the previous page.')
    .optional()
    .describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_INBOX_PAGE_MAX).default(50),
});
export type NotificationInboxQuery = z.infer<typeof NotificationInboxQuery>;

/** The server's list is the truth (docs/PRODUCT.md#notifications): every item carries `read`; `unread` counts all. */
export const NotificationInbox = z
  .object({
    items: z.array(Notification.extend({ read: z.boolean() })),
    unread: z.number().int().nonnegative().describe('Unread notifications of this person, over every page'),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'NotificationInbox' });
export type NotificationInbox = z.infer<typeof NotificationInbox>;

export const NotificationIdParams = z.object({
  id: z.string().regex(/^\d{1,15}$/, 'A notification id is a number.'),
});

/** What marking read or clearing answers: the unread count after it. */
export const NotificationUnread = z
  .object({ unread: z.number().int().nonnegative() })
  .meta({ id: 'NotificationUnread' });
export type NotificationUnread = z.infer<typeof NotificationUnread>;

/** A browser's Web Push subscription (PushSubscription.toJSON()). */
export const PushSubscriptionInput = z
  .object({
    endpoint: z.url({ protocol: /^https?$/ }).max(2048),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({
      p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}=*$/, 'must be a base64url P-256 public key'),
      auth: z.string().regex(/^[A-Za-z0-9_-]{16,30}=*$/, 'must be a base64url authentication secret'),
    }),
  })
  .meta({ id: 'PushSubscription' });
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** POST /public/api/notifications/subscribe. The session decides who subscribes; userId is informative. */
export const SubscribeRequest = z
  .object({
    userId: z.string().max(256).optional().describe("The owner key, or 'anonymous'"),
    subscription: PushSubscriptionInput.optional(),
  })
  .meta({ id: 'SubscribeRequest' });
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;

export const SubscribeResponse = z
  .object({
    subscribed: z.literal(true),
    userId: z.string().describe('The owner key of the signed-in user'),
    push: z.boolean().describe('Whether a Web Push subscription is stored for this browser'),
  })
  .meta({ id: 'SubscribeResponse' });
export type SubscribeResponse = z.infer<typeof SubscribeResponse>;

/**
 * POST /public/api/notifications: to everyone (admins), to one workspace's members (its owners, or admins) or to one
 * person (admins). Without `workspaceId` and `userId` it is the spec's request, unchanged.
 */
export const PublishRequest = z
  .object({
    message: z.string().describe(`Non-blank, at most ${NOTIFICATION_MESSAGE_MAX} characters`),
    timestamp: z.string().optional().describe('ISO-8601 from the client; the server stores its own time'),
    type: z.literal('admin').default('admin'),
    workspaceId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Only this workspace's current members see it (its owners and admins may publish there)"),
    userId: z.string().min(1).max(320).optional().describe('Only this person (owner key) sees it (admins)'),
  })
  .refine((value) => value.workspaceId === undefined || value.userId === undefined, {
    message: 'Send workspaceId or userId, not both.',
  })
  .meta({ id: 'PublishRequest' });
export type PublishRequest = z.input<typeof PublishRequest>;

export const SubscriberCount = z
  .object({
    count: z.number().int().nonnegative().describe('Users subscribed to notifications (POST /subscribe)'),
    pushBrowsers: z.number().int().nonnegative().describe('Browsers subscribed to Web Push'),
    openStreams: z
      .number()
      .int()
      .nonnegative()
      .describe('Live notification streams (open dashboards) connected now to the instance that answers'),
  })
  .meta({ id: 'SubscriberCount' });
export type SubscriberCount = z.infer<typeof SubscriberCount>;

export const WelcomeResponse = z
  .object({
    created: z.boolean().describe('False when this user already had their welcome notification'),
    notification: Notification,
  })
  .meta({ id: 'WelcomeResponse' });
export type WelcomeResponse = z.infer<typeof WelcomeResponse>;

export const VapidPublicKey = z
  .object({ publicKey: z.string().describe('base64url, for PushManager.subscribe({ applicationServerKey })') })
  .meta({ id: 'VapidPublicKey' });
export type VapidPublicKey = z.infer<typeof VapidPublicKey>;

export const StreamQuery = z.object({
  lastEventId: z.string().max(32).optional().describe('Fallback for the Last-Event-ID header'),
});

/** Who a published notification went to, with a readable name (null when it no longer exists). */
export const NotificationAudienceView = z
  .object({
    type: z.enum(['all', 'workspace', 'user']),
    id: z.string().nullable().describe('workspace id or user owner key; null for everyone'),
    name: z.string().nullable().describe('workspace or user name; null for everyone or when it was deleted'),
  })
  .meta({ id: 'NotificationAudienceView' });
export type NotificationAudienceView = z.infer<typeof NotificationAudienceView>;

/** One published notification in the admin's history, with its delivery counts. */
export const NotificationHistoryEntry = z
  .object({
    id: z.string().describe('the notification id (the SSE event id)'),
    message: z.string(),
    publishedAt: z.string().describe('ISO-8601'),
    publishedBy: z
      .object({ userId: z.string().describe('owner key'), name: z.string().nullable() })
      .nullable()
      .describe('null when the publisher no longer exists'),
    audience: NotificationAudienceView,
    deliveredLive: z.number().int().describe('live streams it was written to, summed over every instance'),
    pushSent: z.number().int().describe('Web Push messages the push services accepted'),
    pushFailed: z.number().int().describe('Web Push messages refused (expired subscription included) or not sent'),
  })
  .meta({ id: 'NotificationHistoryEntry' });
export type NotificationHistoryEntry = z.infer<typeof NotificationHistoryEntry>;

export const NOTIFICATION_HISTORY_PAGE_MAX = 100;

/** GET /api/admin/notifications: published notifications, newest first. */
export const NotificationHistoryQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'Use the nextCursor of the previous page.')
    .optional()
    .describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_HISTORY_PAGE_MAX).default(20),
});
export type NotificationHistoryQuery = z.infer<typeof NotificationHistoryQuery>;

export const NotificationHistoryPage = z
  .object({ entries: z.array(NotificationHistoryEntry), nextCursor: z.string().nullable() })
  .meta({ id: 'NotificationHistoryPage' });
export type NotificationHistoryPage = z.infer<typeof NotificationHistoryPage>;

/** How far ahead a message may be scheduled. */
export const SCHEDULE_MAX_AHEAD_DAYS = 365;

/** What the scheduling routes and screen say (400s and 404). */
export const SCHEDULE_TEXTS = {
  inPast: 'Choose a time in the future to schedule the message.',
  tooFar: `Messages can be scheduled at most ${SCHEDULE_MAX_AHEAD_DAYS} days ahead.`,
  notPending: 'This scheduled message was already sent or cancelled.',
  invalidTime: 'sendAt must be an ISO-8601 date and time, e.g. 2026-11-24T18:00:00Z.',
} as const;

/** POST /api/admin/notifications/scheduled: the publish request's audience fields, plus when to send. */
export const ScheduleNotificationRequest = z
  .object({
    message: z.string().describe(`Non-blank, at most ${NOTIFICATION_MESSAGE_MAX} characters`),
    sendAt: z.iso
      .datetime({ offset: true, message: SCHEDULE_TEXTS.invalidTime })
      .describe(`ISO-8601; in the future and at most ${SCHEDULE_MAX_AHEAD_DAYS} days ahead`),
    workspaceId: z.string().min(1).max(200).optional().describe("Only this workspace's current members see it"),
    userId: z.string().min(1).max(320).optional().describe('Only this person (owner key) sees it'),
  })
  .strict()
  .refine((value) => value.workspaceId === undefined || value.userId === undefined, {
    message: 'Send workspaceId or userId, not both.',
  })
  .meta({ id: 'ScheduleNotificationRequest' });
export type ScheduleNotificationRequest = z.infer<typeof ScheduleNotificationRequest>;

export const ScheduledNotification = z
  .object({
    id: z.string(),
    message: z.string(),
    sendAt: z.string().describe('ISO-8601'),
    createdAt: z.string().describe('ISO-8601'),
    createdBy: z.object({ userId: z.string().describe('owner key'), name: z.string().nullable() }).nullable(),
    audience: NotificationAudienceView,
    state: z.enum(['pending', 'sending', 'sent', 'cancelled']),
    notificationId: z.string().nullable().describe('the notification it became, once sent'),
  })
  .meta({ id: 'ScheduledNotification' });
export type ScheduledNotification = z.infer<typeof ScheduledNotification>;

/** GET /api/admin/notifications/scheduled: messages not sent yet, soonest first. */
export const ScheduledNotificationList = z.array(ScheduledNotification).meta({ id: 'ScheduledNotificationList' });
export type ScheduledNotificationList = z.infer<typeof ScheduledNotificationList>;

export const ScheduledNotificationParams = z.object({ id: z.string().min(1).max(100) });

/** The notifications endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const notificationsEndpoints = {
  subscribe: endpoint({
    method: 'POST',
    path: '/public/api/notifications/subscribe',
    body: SubscribeRequest,
    response: SubscribeResponse,
  }),
  publish: endpoint({
    method: 'POST',
    path: '/public/api/notifications',
    body: PublishRequest,
    response: Notification,
  }),
  feed: endpoint({
    method: 'GET',
    path: '/public/api/notifications',
    query: NotificationFeedQuery,
    response: NotificationFeed,
  }),
  subscriberCount: endpoint({
    method: 'GET',
    path: '/public/api/notifications/subscribers/count',
    response: SubscriberCount,
  }),
  welcome: endpoint({ method: 'POST', path: '/public/api/notifications/welcome', response: WelcomeResponse }),
  vapidPublicKey: endpoint({
    method: 'GET',
    path: '/public/api/notifications/vapid-public-key',
    response: VapidPublicKey,
  }),
  inbox: endpoint({
    method: 'GET',
    path: '/public/api/notifications/inbox',
    query: NotificationInboxQuery,
    response: NotificationInbox,
  }),
  markRead: endpoint({
    method: 'POST',
    path: '/public/api/notifications/:id/read',
    params: NotificationIdParams,
    response: NotificationUnread,
  }),
  markAllRead: endpoint({
    method: 'POST',
    path: '/public/api/notifications/read-all',
    response: NotificationUnread,
  }),
  /** Hides every notification up to now for this person only (on every device). */
  clear: endpoint({ method: 'POST', path: '/public/api/notifications/clear', response: NotificationUnread }),
  /** Server-Sent Events, one per notification; resumes after `Last-Event-ID` (or `?lastEventId=`). */
  stream: endpoint({ method: 'GET', path: '/public/api/notifications/stream', query: StreamQuery }),
  history: endpoint({
    method: 'GET',
    path: '/api/admin/notifications',
    query: NotificationHistoryQuery,
    response: NotificationHistoryPage,
  }),
  schedule: endpoint({
    method: 'POST',
    path: '/api/admin/notifications/scheduled',
    body: ScheduleNotificationRequest,
    response: ScheduledNotification,
    status: 201,
  }),
  scheduled: endpoint({
    method: 'GET',
    path: '/api/admin/notifications/scheduled',
    response: ScheduledNotificationList,
  }),
  cancelScheduled: endpoint({
    method: 'DELETE',
    path: '/api/admin/notifications/scheduled/:id',
    params: ScheduledNotificationParams,
    response: ScheduledNotification,
  }),
} as const;
