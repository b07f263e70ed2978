import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A link's download limit counts bytes too (docs/PRODUCT.md#public-links): `bytes_allowed` grows by the file's size
 * with each counted download (a whole GET or a first range), `bytes_served` by every byte sent. A later range (a
 * resume, a seek) is served only while the bytes of downloads already counted cover it, else it counts as a new
 * download; ranges then cannot fetch a used-up link's file again and again.
 */
export const m0025LinkBytes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('links')
      .addColumn('bytes_allowed', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('links')
      .addColumn('bytes_served', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('links').dropColumn('bytes_served').execute();
    await db.schema.alterTable('links').dropColumn('bytes_allowed').execute();
  },
};
