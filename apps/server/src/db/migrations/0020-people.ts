import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * People in photos (docs/PRODUCT.md#people), opt-in per space: `people_settings` (a row: People is on for the space),
 * `people` (a person of a space: a name, a cover face) and `faces` (a face found in a photo: its box as fractions of
 * the image, its 128-number face-recognition descriptor as JSON, the person it belongs to; null: removed from every
 * person). A space is a workspace id or `personal:<owner key>`. Faces go with their file (ON DELETE CASCADE: purging
 * a photo deletes its descriptors); everything goes with its workspace.
 */
export const m0020People: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('people_settings')
      .addColumn('space_key', 'text', (col) => col.primaryKey())
      .addColumn('workspace_id', 'text', (col) => col.references('workspaces.id').onDelete('cascade'))
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('people')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('space_key', 'text', (col) => col.notNull())
      .addColumn('workspace_id', 'text', (col) => col.references('workspaces.id').onDelete('cascade'))
      .addColumn('name', 'text')
      .addColumn('cover_face_id', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('people_space').on('people').column('space_key').execute();
    await db.schema
      .createTable('faces')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('space_key', 'text', (col) => col.notNull())
      .addColumn('person_id', 'text', (col) => col.references('people.id').onDelete('set null'))
      .addColumn('box_left', 'real', (col) => col.notNull())
      .addColumn('box_top', 'real', (col) => col.notNull())
      .addColumn('box_width', 'real', (col) => col.notNull())
      .addColumn('box_height', 'real', (col) => col.notNull())
      .addColumn('descriptor', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('faces_space').on('faces').column('space_key').execute();
    await db.schema.createIndex('faces_person').on('faces').column('person_id').execute();
    await db.schema.createIndex('faces_file').on('faces').column('file_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('faces').execute();
    await db.schema.dropTable('people').execute();
    await db.schema.dropTable('people_settings').execute();
  },
};
