import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Second factors (docs/PRODUCT.md#second-factors). `totp_factors`: one per user; the secret sealed with AES-256-GCM
 * under a key derived from SESSION_SECRET (never stored plain), confirmed once a first code matched, the last time
 * step used (a code is accepted once). `recovery_codes`: ten per confirmed TOTP, SHA-256 of each code, `used_at` once
 * spent. `passkeys`: WebAuthn credentials (id is the credential id, base64url). `login_challenges`: pending
 * sign-ins waiting for their second factor and WebAuthn challenges; the id is the SHA-256 of the token the browser
 * holds, short-lived.
 */
export const m0033SecondFactors: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('totp_factors')
      .addColumn('user_id', 'text', (col) => col.primaryKey())
      .addColumn('secret', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('confirmed_at', 'text')
      .addColumn('last_used_step', 'bigint')
      .execute();
    await db.schema
      .createTable('recovery_codes')
      .addColumn('code_hash', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('public_key', 'text', (col) => col.notNull())
      .addColumn('counter', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('transports', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
    await db.schema
      .createTable('login_challenges')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text')
      .addColumn('challenge', 'text')
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('login_challenges_expires').on('login_challenges').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('login_challenges').execute();
    await db.schema.dropTable('passkeys').execute();
    await db.schema.dropTable('recovery_codes').execute();
    await db.schema.dropTable('totp_factors').execute();
  },
};
