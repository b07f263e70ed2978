// The retrieval of "Ask your files" (docs/PRODUCT.md#ask-your-files) called directly, for bench/ask-eval.mjs: the
// public API has no switch for query expansion, so this runs the module's own `retrieve` against the database the
// bench server filled (the same passages and visibility condition), once with expansion off (passages + BM25) and
// once with it on (+ WordNet). No embeddings provider is configured here, so `dense` is off in both.
// Input: a JSON file { database: "sqlite:/…/atrium.db" | "postgres://…", questions: string[] }.
// Output (stdout): JSON { plain: string[][], expanded: string[][] }, for each question the distinct file ids in the
// order of their best passage (at most 10).
//
// Usage: node scripts/run.mjs tsx bench/ask-retrieval.ts input.json   (run by bench/ask-eval.mjs)
import { readFileSync } from 'node:fs';
import { userActor } from '../apps/server/src/auth/actor.js';
import { openDatabase } from '../apps/server/src/db/index.js';
import { createAskRepository } from '../apps/server/src/modules/ask/ask.repository.js';
import { createRetrieval } from '../apps/server/src/modules/ask/retrieval.js';
import { createVectorIndex } from '../apps/server/src/modules/ask/vector-index.js';
import { createVectorIndexRepository } from '../apps/server/src/modules/ask/vector-index.repository.js';

const input = JSON.parse(readFileSync(String(process.argv[2]), 'utf8')) as {
  database: string;
  questions: string[];
};
const handle = openDatabase(
  input.database.startsWith('postgres')
    ? { kind: 'postgres', url: input.database }
    : { kind: 'sqlite', file: input.database.slice('sqlite:'.length) },
);
// The bench's only admin: the person who uploaded every page.
const admins = await handle.db.selectFrom('users').selectAll().where('role', '=', 'admin').execute();
const row = admins[0];
if (!row || admins.length !== 1) throw new Error('expected exactly one admin');
const actor = userActor(row);
const retrieval = createRetrieval(
  createAskRepository(handle.db, handle.dialect),
  () => null,
  createVectorIndex(createVectorIndexRepository(handle.db, handle.dialect), { info: () => undefined }),
);

async function ranking(question: string, expansion: boolean): Promise<string[]> {
  const ranked = await retrieval.retrieve(actor, question, {}, { expansion, dense: false });
  return [...new Set(ranked.map((r) => r.row.file_id))].slice(0, 10);
}
const plain: string[][] = [];
const expanded: string[][] = [];
for (const question of input.questions) {
  plain.push(await ranking(question, false));
  expanded.push(await ranking(question, true));
}
await handle.close();
process.stdout.write(JSON.stringify({ plain, expanded }));
