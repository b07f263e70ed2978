/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"), plus tab and CR. */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
/**
 * Where a spreadsheet may start a new cell inside our cell: the list separator of the reader's locale (`,` or
 * `;`, which it may apply to a file written with the other), tab, and line breaks.
 */
const CELL_BREAK = new Set([',', ';', '\t', '\r', '\n']);

/**
 * Guards a value against formula injection: a `'` goes before every character that starts a formula at the start
 * of the value or right after a `,`, `;`, tab, CR or LF — so `;=1+1` stays text even where a spreadsheet splits
 * the cell at `;` (a locale whose list separator it is). Spreadsheets show the `'`-led part as text.
 */
export function guardFormula(value: string): string {
  let guarded = '';
  let cellStart = true;
  for (const char of value) {
    if (cellStart && FORMULA_START.has(char)) guarded += "'";
    guarded += char;
    cellStart = CELL_BREAK.has(char);
  }
  return guarded;
}

/**
 * One CSV cell (RFC 4180), always quoted (quotes doubled), so no separator or line break inside it ends it,
 * whichever separator the reader expects; guarded against formulas (`guardFormula`). Null is an empty cell.
 */
export function csvCell(value: string | null | undefined): string {
  return `"${guardFormula(value ?? '').replace(/"/g, '""')}"`;
}

/** One CSV line, CRLF-terminated. */
export const csvLine = (cells: readonly (string | null | undefined)[]): string => `${cells.map(csvCell).join(',')}\r\n`;
