import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, guardFormula } from './csv';

describe('csv', () => {
  it('quotes every cell, null and empty as an empty quoted cell', () => {
    expect(csvCell('alice')).toBe('"alice"');
    expect(csvCell('')).toBe('""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });

  it('keeps commas, semicolons and line breaks inside the quotes, doubling quotes', () => {
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('a; b')).toBe('"a; b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('guards values that start like a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('a=b')).toBe('"a=b"');
  });

  it('guards every part a spreadsheet could read as a cell of its own: after ; , tab, CR and LF', () => {
    expect(guardFormula(';=1+1')).toBe(";'=1+1");
    expect(guardFormula('x,+1;-2;@A1')).toBe("x,'+1;'-2;'@A1");
    expect(guardFormula('a\t=1')).toBe("a\t'=1");
    expect(guardFormula('a\n=1\r+2')).toBe("a\n'=1\r'+2");
    // A tab or CR that starts a part is guarded itself, and so is what follows it.
    expect(guardFormula('\t=1')).toBe("'\t'=1");
    expect(guardFormula(';\r=1')).toBe(";'\r'=1");
    // A space first is not a formula: user agents stay readable.
    expect(guardFormula('Mozilla/5.0 (X11; Linux x86_64)')).toBe('Mozilla/5.0 (X11; Linux x86_64)');
    expect(guardFormula('a - b, c')).toBe('a - b, c');
  });

  it('joins a line with commas and CRLF', () => {
    expect(csvLine(['a', null, '=x', ';=1+1'])).toBe(`"a","","'=x",";'=1+1"\r\n`);
  });
});
