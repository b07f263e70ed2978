import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

describe.each(dialects())('migration 0028-notification-reads (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('keeps existing notifications and adds per-user markers and single reads that go with their user and row', async () => {
    const handle = await open();
    await migrateThrough(handle, '0027-jobs');
    const now = '2026-01-01T00:00:00.000Z';
    await handle.db
      .insertInto('users')
      .values({ id: 'u1', owner_key: 'carol', role: 'user', created_at: now, updated_at: now } as never)
      .execute();
    const row = await handle.db
      .insertInto('notifications')
      .values({
        message: 'before',
        type: 'admin',
        audience_user_id: null,
        created_by: null,
        dedupe_key: null,
        created_at: now,
      })
      .returning('seq')
      .executeTakeFirstOrThrow();

    await migrateThrough(handle, '0028-notification-reads');
    expect(await handle.db.selectFrom('notifications').select('message').execute()).toEqual([{ message: 'before' }]);
    await handle.db.insertInto('notification_marks').values({ user_id: 'u1', updated_at: now }).execute();
    expect(
      await handle.db.selectFrom('notification_marks').select(['read_through', 'cleared_through']).execute(),
    ).toEqual([{ read_through: 0, cleared_through: 0 }]);
    await handle.db.insertInto('notification_reads').values({ user_id: 'u1', seq: row.seq, read_at: now }).execute();
    // One read per person and notification.
    await expect(
      handle.db.insertInto('notification_reads').values({ user_id: 'u1', seq: row.seq, read_at: now }).execute(),
    ).rejects.toThrow();
    // A deleted notification takes its reads along; a deleted user their markers.
    await handle.db.deleteFrom('notifications').execute();
    expect(await handle.db.selectFrom('notification_reads').selectAll().execute()).toEqual([]);
    await handle.db.deleteFrom('users').execute();
    expect(await handle.db.selectFrom('notification_marks').selectAll().execute()).toEqual([]);
  });
});
