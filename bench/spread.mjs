// The rows of a big instance, written straight into its database as uploads leave them (bench/search.mjs,
// bench/ask-scale.mjs): `total` files, 60% in the admin's personal space across 500 folders, 20% in a workspace of
// theirs across 300, 20% in a stranger's personal space across 300 of which one folder is shared with the admin — so
// the visibility condition runs over every row.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './files-lib.mjs';

/**
 * @param {{
 *   total: number,
 *   random: () => number,
 *   personalRoot: string,
 *   workspace: { id: string, rootFolderId: string },
 *   adminId: string,
 *   folderName: (i: number) => string,
 *   file: (i: number) => { name: string, contentType: string, size: number },
 * }} options
 */
export function spreadRows({ total, random, personalRoot, workspace, adminId, folderName, file }) {
  const now = Date.now();
  const iso = (/** @type {number} */ ms) => new Date(ms).toISOString();
  /** @type {Record<string, unknown>[]} */
  const folders = [];
  /** @type {Record<string, unknown>[]} */
  const files = [];
  const strangerRootId = randomUUID();
  folders.push({
    id: strangerRootId,
    workspace_id: null,
    owner_key: 'stranger',
    parent_id: null,
    name: 'stranger',
    name_key: 'stranger',
    created_by: null,
    created_at: iso(now),
    updated_at: iso(now),
  });
  /**
   * @param {{ workspaceId: string | null, ownerKey: string | null, fileOwner: string, rootId: string }} space
   * @param {number} folderCount @param {number} fileCount
   */
  function fill(space, folderCount, fileCount) {
    /** @type {string[]} */
    const ids = [];
    for (let i = 0; i < folderCount; i++) {
      const id = randomUUID();
      const name = folderName(i);
      ids.push(id);
      folders.push({
        id,
        workspace_id: space.workspaceId,
        owner_key: space.ownerKey,
        parent_id: space.rootId,
        name,
        name_key: name.toLowerCase(),
        created_by: null,
        created_at: iso(now - i * 60_000),
        updated_at: iso(now - i * 60_000),
      });
    }
    for (let i = 0; i < fileCount; i++) {
      const { name, contentType, size } = file(i);
      const id = randomUUID();
      files.push({
        id,
        owner_key: space.fileOwner,
        file_name: name,
        name_key: name.toLowerCase(),
        size,
        content_type: contentType,
        sha256: '0'.repeat(64),
        blob_key: `files/${id}`,
        upload_date: iso(now - Math.floor(random() * 365 * 86_400_000)),
        folder_id: ids[Math.floor(random() * ids.length)],
        workspace_id: space.workspaceId,
        uploaded_by: null,
      });
    }
    return ids;
  }
  fill({ workspaceId: null, ownerKey: 'admin', fileOwner: 'admin', rootId: personalRoot }, 500, total * 0.6);
  fill(
    { workspaceId: workspace.id, ownerKey: null, fileOwner: 'admin', rootId: workspace.rootFolderId },
    300,
    total * 0.2,
  );
  const strangerFolders = fill(
    { workspaceId: null, ownerKey: 'stranger', fileOwner: 'stranger', rootId: strangerRootId },
    300,
    total * 0.2,
  );
  const shares = [
    {
      id: randomUUID(),
      file_id: null,
      folder_id: strangerFolders[0],
      grantee_user_id: adminId,
      grantee_workspace_id: null,
      role: 'viewer',
      created_by: null,
      created_at: iso(now),
    },
  ];
  return { folders, files, shares, now, iso };
}

/**
 * Inserts `tables` (name and rows, every row with the same columns) in one transaction: PostgreSQL (`client`, a
 * connected `pg.Client`) in batches of 1,000 rows.
 * @param {{ query: (text: string, values?: unknown[]) => Promise<unknown> }} client
 * @param {[string, Record<string, unknown>[]][]} tables
 */
export async function insertRowsPostgres(client, tables) {
  await client.query('begin');
  for (const [table, rows] of tables) {
    const columns = Object.keys(rows[0] ?? {});
    for (let at = 0; at < rows.length; at += 1000) {
      const batch = rows.slice(at, at + 1000);
      const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
      await client.query(
        `insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`,
        batch.flatMap((row) => columns.map((column) => row[column])),
      );
    }
  }
  await client.query('commit');
}

/**
 * The same on SQLite, the instance's database file `file`, a transaction per table; answers the open database.
 * @param {string} file
 * @param {[string, Record<string, unknown>[]][]} tables
 */
export function insertRowsSqlite(file, tables) {
  const Database = createRequire(path.join(root, 'apps/server/package.json'))('better-sqlite3');
  /** @type {import('better-sqlite3').Database} */
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  for (const [table, rows] of tables) {
    const columns = Object.keys(rows[0] ?? {});
    const insert = db.prepare(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    db.transaction(() => rows.forEach((row) => insert.run(row)))();
  }
  return db;
}
