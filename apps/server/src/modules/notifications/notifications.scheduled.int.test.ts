import type { AuditPage, Notification, NotificationHistoryPage, ScheduledNotification } from '@atrium/contracts';
import { SCHEDULE_TEXTS } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, userIdOf, type TestServer } from '../../../test/helpers';
import { openSse, type SseStream } from '../../../test/sse';
import type { Clock } from '../../lib/time';
import { createScheduledNotificationsRepository } from './scheduled-notifications.repository';
import { createScheduledNotificationsService } from './scheduled-notifications.service';

const SCHEDULED = '/api/admin/notifications/scheduled';
const JOB = 'notifications.scheduled';

/** A clock the test moves forward (sessions, job leases and due times all follow it). */
const movableClock = () => {
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
  return { clock, advance: (ms: number) => (offsetMs += ms) };
};

const json = (cookie: string, body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe.each(dialects())('scheduled notifications (%s)', (dialect) => {
  let server: TestServer;
  let admin: string;
  const time = movableClock();
  const streams: SseStream[] = [];
  beforeAll(async () => {
    server = await startTestServer({ dialect, overrides: { clock: time.clock } });
    admin = await server.signInAs({ owner_key: 'admin', role: 'admin', name: 'Ada Admin' });
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await server?.close();
  });

  const inSeconds = (seconds: number) => new Date(time.clock.now().getTime() + seconds * 1000).toISOString();
  const schedule = (body: Record<string, unknown>, cookie = admin) => server.fetch(SCHEDULED, json(cookie, body));
  const pending = async () => {
    const response = await server.fetch(SCHEDULED, { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    return readJson<ScheduledNotification[]>(response);
  };
  const audit = async (action: string) => {
    const response = await server.fetch(`/api/admin/audit?action=${action}`, { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    return (await readJson<AuditPage>(response)).entries;
  };
  const history = async () =>
    (
      await readJson<NotificationHistoryPage>(
        await server.fetch('/api/admin/notifications?limit=100', { headers: { cookie: admin } }),
      )
    ).entries;
  /** Moves past the job's lease and the due time, then runs the job as its timer would. */
  const runJobAfter = async (ms: number) => {
    time.advance(ms);
    await server.app.scheduler.runNow(JOB);
  };

  it('stores a message for later, lists it pending, and the job sends it once when due', async () => {
    const erin = await server.signInAs({ owner_key: 'erin' });
    const stream = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: erin } });
    streams.push(stream);
    const sendAt = inSeconds(60);
    const created = await schedule({ message: '  Office closed tomorrow  ', sendAt });
    expect(created.status).toBe(201);
    const scheduled = await readJson<ScheduledNotification>(created);
    expect(scheduled).toMatchObject({
      message: 'Office closed tomorrow',
      sendAt,
      state: 'pending',
      createdBy: { userId: 'admin', name: 'Ada Admin' },
      audience: { type: 'all', id: null, name: null },
      notificationId: null,
    });
    expect((await pending()).map((s) => s.id)).toContain(scheduled.id);
    expect((await audit('notification.scheduled'))[0]).toMatchObject({
      actor: 'admin',
      target: `scheduled:${scheduled.id}`,
      details: { message: 'Office closed tomorrow', sendAt },
    });

    // Not due yet: the job leaves it.
    await runJobAfter(30_000);
    expect(stream.events).toHaveLength(0);
    expect((await pending()).map((s) => s.id)).toContain(scheduled.id);

    // Due: sent to the open stream, gone from the pending list, in the history.
    await runJobAfter(31_000);
    const [event] = await stream.waitForEvents(1);
    const delivered = JSON.parse(event?.data ?? '{}') as Notification;
    expect(delivered).toMatchObject({ message: 'Office closed tomorrow', type: 'admin' });
    expect((await pending()).map((s) => s.id)).not.toContain(scheduled.id);
    expect((await history()).find((e) => e.id === delivered.id)).toMatchObject({
      message: 'Office closed tomorrow',
      publishedBy: { userId: 'admin' },
    });
    expect(
      (await audit('notification.published')).find((e) => e.target === `notification:${delivered.id}`),
    ).toMatchObject({
      actor: 'admin',
      details: { scheduledId: scheduled.id },
    });

    // Sent once: later runs send nothing more, and it can no longer be cancelled.
    await runJobAfter(60_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.events).toHaveLength(1);
    const late = await server.fetch(`${SCHEDULED}/${scheduled.id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(late.status).toBe(404);
    expect(await readError(late)).toMatchObject({ code: 'NOT_FOUND', message: SCHEDULE_TEXTS.notPending });
  });

  it('cancels a pending message: audited, never sent, a second cancel is 404', async () => {
    const scheduled = await readJson<ScheduledNotification>(
      await schedule({ message: 'Cancelled before it went out', sendAt: inSeconds(120), userId: 'erin' }),
    );
    expect(scheduled.audience).toEqual({ type: 'user', id: 'erin', name: 'erin' });
    const cancel = () => server.fetch(`${SCHEDULED}/${scheduled.id}`, { method: 'DELETE', headers: { cookie: admin } });
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    expect(await readJson<ScheduledNotification>(cancelled)).toMatchObject({ id: scheduled.id, state: 'cancelled' });
    expect((await audit('notification.schedule_cancelled'))[0]).toMatchObject({
      actor: 'admin',
      target: `scheduled:${scheduled.id}`,
    });
    expect((await cancel()).status).toBe(404);
    expect((await pending()).map((s) => s.id)).not.toContain(scheduled.id);
    await runJobAfter(180_000);
    expect((await history()).map((e) => e.message)).not.toContain('Cancelled before it went out');
    const unknown = await server.fetch(`${SCHEDULED}/no-such-id`, { method: 'DELETE', headers: { cookie: admin } });
    expect(unknown.status).toBe(404);
  });

  it('withdraws a message whose author is no longer an admin when it falls due', async () => {
    const author = await server.signInAs({ owner_key: 'ex-admin', role: 'admin' });
    const stream = await openSse(`${server.url}/public/api/notifications/stream`, { headers: { cookie: admin } });
    streams.push(stream);
    const scheduled = await readJson<ScheduledNotification>(
      await schedule({ message: 'From a former admin', sendAt: inSeconds(60) }, author),
    );
    const demoted = await server.fetch('/api/admin/users/ex-admin', json(admin, { role: 'user' }, 'PATCH'));
    expect(demoted.status).toBe(200);
    await runJobAfter(61_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.events).toHaveLength(0);
    expect((await history()).map((e) => e.message)).not.toContain('From a former admin');
    expect((await pending()).map((s) => s.id)).not.toContain(scheduled.id);
    expect(
      (await audit('notification.schedule_cancelled')).find((e) => e.target === `scheduled:${scheduled.id}`),
    ).toMatchObject({
      actor: null,
      details: { reason: 'author_not_admin', author: 'ex-admin' },
    });
  });

  it('refuses a time in the past or over a year ahead, bad input and non-admins, storing nothing', async () => {
    const before = await pending();
    const cases: [Record<string, unknown>, number, string | undefined][] = [
      [{ message: 'Too late', sendAt: inSeconds(-5) }, 400, SCHEDULE_TEXTS.inPast],
      [{ message: 'Too far', sendAt: inSeconds(366 * 24 * 3600) }, 400, SCHEDULE_TEXTS.tooFar],
      [{ message: 'No time' }, 400, undefined],
      [{ message: 'Bad time', sendAt: 'tomorrow at noon' }, 400, undefined],
      [{ message: '   ', sendAt: inSeconds(60) }, 400, 'Please enter a message to send'],
      [{ message: 'x'.repeat(1001), sendAt: inSeconds(60) }, 400, 'Messages can be at most 1000 characters.'],
      [{ message: 'Nobody', sendAt: inSeconds(60), userId: 'no-such-user' }, 404, undefined],
      [{ message: 'Both', sendAt: inSeconds(60), userId: 'erin', workspaceId: 'w' }, 400, undefined],
      [{ message: 'Extra', sendAt: inSeconds(60), type: 'admin', extra: true }, 400, undefined],
    ];
    for (const [body, status, message] of cases) {
      const response = await schedule(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      const error = await readError(response);
      if (message) expect(error.message).toBe(message);
    }
    const invalid = await readError(await schedule({ message: 'Bad time', sendAt: 'tomorrow at noon' }));
    expect(JSON.stringify(invalid)).toContain(SCHEDULE_TEXTS.invalidTime);
    // A year ahead exactly is fine.
    const yearAhead = await schedule({ message: 'Next year', sendAt: inSeconds(365 * 24 * 3600 - 60) });
    expect(yearAhead.status).toBe(201);
    const id = (await readJson<ScheduledNotification>(yearAhead)).id;
    expect((await pending()).map((s) => s.id)).toEqual([...before.map((s) => s.id), id]);

    const user = await server.signInAs({ owner_key: 'sched-user' });
    expect((await schedule({ message: 'Hi', sendAt: inSeconds(60) }, user)).status).toBe(403);
    expect((await server.fetch(SCHEDULED, { headers: { cookie: user } })).status).toBe(403);
    expect((await server.fetch(`${SCHEDULED}/${id}`, { method: 'DELETE', headers: { cookie: user } })).status).toBe(
      403,
    );
    expect((await pending()).map((s) => s.id)).toContain(id);
  });

  it('takes over a claim left by an instance that died while sending, without sending it twice', async () => {
    const db = server.app.database.db;
    const adminUserId = await userIdOf(server, 'admin');
    const now = time.clock.now();
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const id = `crashed-${dialect}`;
    await createScheduledNotificationsRepository(db).insert({
      id,
      message: 'Stored before the crash',
      audience: { type: 'all' },
      createdBy: adminUserId,
      sendAt: ago(20 * 60_000),
      createdAt: ago(30 * 60_000),
    });
    // The dead instance had claimed it and stored the notification, then stopped before marking it sent.
    await db
      .updateTable('scheduled_notifications')
      .set({ state: 'sending', claimed_at: ago(10 * 60_000) })
      .where('id', '=', id)
      .execute();
    await db
      .insertInto('notifications')
      .values({
        message: 'Stored before the crash',
        type: 'admin',
        audience_user_id: null,
        audience_type: 'all',
        audience_id: null,
        created_by: adminUserId,
        dedupe_key: `scheduled:${id}`,
        created_at: ago(10 * 60_000),
      })
      .execute();
    await runJobAfter(60_000);
    const stored = await db
      .selectFrom('notifications')
      .select('seq')
      .where('message', '=', 'Stored before the crash')
      .execute();
    expect(stored).toHaveLength(1);
    const row = await db
      .selectFrom('scheduled_notifications')
      .select(['state', 'notification_seq'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'sent', notification_seq: stored[0]?.seq });
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = await readJson<{ paths: Record<string, object>; components: { schemas: object } }>(
      await server.fetch('/api/docs'),
    );
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/admin/notifications',
        '/api/admin/notifications/scheduled',
        '/api/admin/notifications/scheduled/{id}',
      ]),
    );
    expect(doc.components.schemas).toHaveProperty('ScheduleNotificationRequest');
    expect(doc.components.schemas).toHaveProperty('NotificationHistoryPage');
  });

  it('sends each due message exactly once when two instances run the job at the same time', async () => {
    // The server's own `notifications.scheduled` job (every 15 s) would race the two instances below for these
    // messages and send some of them itself: stop it for this test (it is the last one of the server).
    await server.app.scheduler.stop();
    const db = server.app.database.db;
    const repo = createScheduledNotificationsRepository(db);
    const adminUserId = await userIdOf(server, 'admin');
    const now = time.clock.now();
    const ids = Array.from({ length: 20 }, (_, i) => `race-${dialect}-${i}`);
    for (const id of ids) {
      await repo.insert({
        id,
        message: `race ${id}`,
        audience: { type: 'all' },
        createdBy: adminUserId,
        sendAt: new Date(now.getTime() - 1000).toISOString(),
        createdAt: now.toISOString(),
      });
    }
    const published: string[] = [];
    const instance = () =>
      createScheduledNotificationsService({
        repo: createScheduledNotificationsRepository(db),
        notifications: {
          prepare: async () => {
            throw new Error('not used');
          },
          publishPrepared: async ({ message, dedupeKey }) => {
            published.push(dedupeKey);
            await new Promise((r) => setTimeout(r, 5));
            return {
              created: true,
              notification: { id: String(published.length), message, timestamp: now.toISOString(), type: 'admin' },
            };
          },
        },
        events: { emit: async () => undefined },
        clock: time.clock,
        log: { error: () => undefined, info: () => undefined },
      });
    const [one, two] = [instance(), instance()];
    const counts = await Promise.all([one.sendDue(), two.sendDue(), one.sendDue(), two.sendDue()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    expect(published.sort()).toEqual(ids.map((id) => `scheduled:${id}`).sort());
    const states = await db.selectFrom('scheduled_notifications').select('state').where('id', 'in', ids).execute();
    expect(states.every((row) => row.state === 'sent')).toBe(true);
  });
});
