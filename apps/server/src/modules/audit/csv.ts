/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"), plus tab and CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled; a value starting
 * like a formula gets a leading `'` so spreadsheets show it as text.
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** One CSV line, CRLF-terminated. */
export const csvLine = (cells: readonly (string | null | undefined)[]): string => `${cells.map(csvCell).join(',')}\r\n`;
