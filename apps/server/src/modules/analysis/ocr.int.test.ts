import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { layOut, ocr, parseTsv, skewDegrees, textOf } from './ocr';

const LINES = [
  'The supplier contract ends on the last day of June',
  'Either party may terminate it with ninety days notice',
  'Invoices are due within thirty days of their date',
  'Reference number ACME-2026-0042 applies to all orders',
];

/** A page of known text as the analysis hands it to tesseract: a greyscale PNG. */
async function page(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="700">
    <rect width="100%" height="100%" fill="white"/>
    ${LINES.map((line, i) => `<text x="80" y="${120 + i * 60}" font-family="DejaVu Sans" font-size="34">${line}</text>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg)).greyscale().png().toBuffer();
}

const found = (text: string) => {
  const words = new Set(text.toLowerCase().split(/[^a-z0-9-]+/));
  const all = LINES.join(' ').toLowerCase().split(/\s+/);
  return all.filter((word) => words.has(word)).length / all.length;
};

describe('text recognition (Debian tesseract, word confidences)', () => {
  it('reads an upright page as it is', async () => {
    const result = await ocr(await page());
    expect(result.rotated).toBe(0);
    expect(found(result.text)).toBeGreaterThan(0.9);
    expect(result.text).toContain('ACME-2026-0042');
  });

  it.each([90, 180, 270])('reads a page photographed at %i°, turned upright where needed', async (angle) => {
    const turned = await sharp(await page())
      .rotate(angle)
      .png()
      .toBuffer();
    const result = await ocr(turned);
    expect(found(result.text)).toBeGreaterThan(0.9);
    // tesseract reads lines on their side by itself; upside down it reads nothing until the page is turned.
    if (angle === 180) expect(result.rotated).toBe(180);
  });
});

describe('a full page upside down', () => {
  // Thirty lines: upside down, tesseract reads hundreds of "words", dozens of them letters it is sure of.
  const FULL = Array.from({ length: 30 }, (_, i) => `${LINES[i % LINES.length] ?? ''} line ${i + 1}`);

  it('is turned upright and read in full', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754">
      <rect width="100%" height="100%" fill="white"/>
      ${FULL.map((line, i) => `<text x="60" y="${90 + i * 54}" font-family="DejaVu Serif" font-size="30">${line}</text>`).join('')}
    </svg>`;
    const upsideDown = await sharp(Buffer.from(svg)).rotate(180).greyscale().png().toBuffer();
    const result = await ocr(upsideDown);
    expect(result.rotated).toBe(180);
    expect(found(result.text)).toBeGreaterThan(0.9);
    expect(result.text).toContain('line 30');
  });
});

describe('a page photographed askew', () => {
  const askew = async (degrees: number) =>
    sharp(await page())
      .rotate(degrees, { background: '#ffffff' })
      .greyscale()
      .png()
      .toBuffer();

  it.each([7, -15])('reads a page turned %i°, its lines straightened first', async (degrees) => {
    const result = await ocr(await askew(degrees));
    expect(found(result.text)).toBeGreaterThan(0.9);
    expect(result.text).toContain('ACME-2026-0042');
    expect(result.straightened).toBeCloseTo(degrees, 0);
  });

  it.each([-20, -4, 0, 3, 12])('measures the skew of lines turned %i°', async (degrees) => {
    expect(Math.abs((await skewDegrees(await askew(degrees))) - degrees)).toBeLessThanOrEqual(0.5);
  });

  it('finds no skew on an image without ink', async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(await skewDegrees(blank)).toBe(0);
  });
});

describe('tesseract TSV', () => {
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t',
    '5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t96.1\tBudget',
    '5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t91.0\treview',
    '5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t88.0\tMonday',
    '5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t12.0\t~,',
    '5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t93.0\tAgenda',
    '5\t1\t2\t1\t1\t2\t0\t0\t10\t10\t95.0\t \t',
  ].join('\n');

  it('keeps sure words in their lines and paragraphs, drops unsure marks', () => {
    expect(layOut(parseTsv(tsv))).toBe('Budget review\nMonday\n\nAgenda');
    expect(textOf(parseTsv(tsv))).toEqual({ text: 'Budget review\nMonday\n\nAgenda', realWords: 4 });
  });

  it('stores nothing for a picture where tesseract made out only marks ("a\\n, 4" in a portrait)', () => {
    const marks = [
      tsv.split('\n')[0],
      '5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t62.0\ta',
      '5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t48.0\t,',
      '5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t71.0\t4',
      '5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t55.0\tlle',
    ].join('\n');
    expect(textOf(parseTsv(marks))).toEqual({ text: '', realWords: 0 });
  });
});
