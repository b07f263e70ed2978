import { FILE_KIND_PATTERNS, type FileKind } from '@atrium/contracts';
import { sql, type RawBuilder } from 'kysely';

function kindCondition(kind: Exclude<FileKind, 'other'>, column: RawBuilder<unknown>): RawBuilder<boolean> {
  const { exact, prefixes } = FILE_KIND_PATTERNS[kind];
  const parts = [
    ...prefixes.map((prefix) => sql`lower(${column}) like ${`${prefix}%`}`),
    ...(exact.length > 0 ? [sql`lower(${column}) in (${sql.join(exact)})`] : []),
  ];
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

/**
 * SQL: the content type in `column` is of `kind` — the same classification as `fileKindOf` in contracts (the type
 * filter of search and of folder listings; `other` is none of the others).
 */
export function fileKindCondition(kind: FileKind, column: RawBuilder<unknown>): RawBuilder<boolean> {
  if (kind !== 'other') return kindCondition(kind, column);
  const all = (['image', 'audio', 'video', 'document'] as const).map((k) => kindCondition(k, column));
  return sql<boolean>`not (${sql.join(all, sql` or `)})`;
}
