import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * When each user's first sign-in was greeted (`GET /api/me` `firstLogin`, `POST /api/me/first-login`): the
 * greeting and notification subscription of the first login belong to the user, not to the browser.
 * Users who exist already have signed in before, so they count as greeted.
 */
export const m0008FirstLogin: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('first_login_completed_at', 'text').execute();
    await sql`UPDATE users SET first_login_completed_at = created_at`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('first_login_completed_at').execute();
  },
};
