import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Consent to membership (docs/PRODUCT.md#workspace-members):
 * - `settings`: instance settings an admin changes, one text value per key (e.g. `membersMustAccept`);
 * - `workspace_invitations`: people invited to a workspace who have not accepted yet. They are kept out of
 *   `workspace_members`, so every rule that reads memberships treats them as non-members without a change;
 * - `workspace_members.opened_at`: when the member first accepted or opened the workspace; until then its messages
 *   are not delivered to them. Existing members count as having opened it;
 * - `notifications.details`: JSON of what a workspace message or a membership notice names (the workspace, the
 *   sender, the role), kept with the row so the stream, the feed and Web Push say the same.
 */
export const m0026MembershipConsent: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('updated_by', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('workspace_invitations')
      .addColumn('workspace_id', 'text', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('invited_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('invited_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('workspace_invitations_pk', ['workspace_id', 'user_id'])
      .addCheckConstraint('workspace_invitations_role', sql`role in ('owner', 'editor', 'viewer')`)
      .execute();
    await db.schema.createIndex('workspace_invitations_user').on('workspace_invitations').column('user_id').execute();

    await db.schema.alterTable('workspace_members').addColumn('opened_at', 'text').execute();
    await sql`update workspace_members set opened_at = added_at`.execute(db);

    await db.schema.alterTable('notifications').addColumn('details', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('notifications').dropColumn('details').execute();
    await db.schema.alterTable('workspace_members').dropColumn('opened_at').execute();
    await db.schema.dropTable('workspace_invitations').execute();
    await db.schema.dropTable('settings').execute();
  },
};
