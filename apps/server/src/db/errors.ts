/** A unique index refused a row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; message?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e.message ?? '')
  );
};

/** A foreign key refused a row: it names a row that is gone (PostgreSQL 23503, SQLite SQLITE_CONSTRAINT_FOREIGNKEY). */
export const isForeignKeyViolation = (error: unknown): boolean => {
  const e = error as { code?: string; message?: string };
  return (
    e.code === '23503' ||
    e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    /FOREIGN KEY constraint failed/.test(e.message ?? '')
  );
};
