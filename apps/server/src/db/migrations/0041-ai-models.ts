import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Uploaded GGUF models (docs/PRODUCT.md#ai-models): one row per model file kept in `DATA_DIR/models/<id>.gguf`, what
 * its metadata says (architecture, embedding and context length), and what it is selected for (`chat`,
 * `embeddings`, or null); at most one model per role (a unique index on `role`; nulls do not collide).
 */
export const m0041AiModels: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ai_models')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'bigint', (col) => col.notNull())
      .addColumn('architecture', 'text', (col) => col.notNull())
      .addColumn('embedding_length', 'integer')
      .addColumn('context_length', 'integer')
      .addColumn('role', 'text')
      .addColumn('uploaded_by', 'text')
      .addColumn('uploaded_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('ai_models_role').on('ai_models').column('role').unique().execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ai_models').execute();
  },
};
