/**
 * Colour analysis in the spirit of Azure Computer Vision's "Color" feature, computed from a small
 * RGB thumbnail: every pixel is named with one of Azure's 12 colour names.
 */

export const AZURE_COLORS = [
  'Black',
  'Blue',
  'Brown',
  'Gray',
  'Green',
  'Orange',
  'Pink',
  'Purple',
  'Red',
  'Teal',
  'White',
  'Yellow',
] as const;
export type AzureColorName = (typeof AZURE_COLORS)[number];

export interface ColorResult {
  dominantColorForeground: AzureColorName;
  dominantColorBackground: AzureColorName;
  dominantColors: AzureColorName[];
  accentColor: string;
  isBWImg: boolean;
  isBwImg: boolean;
}

export interface ColorStats extends ColorResult {
  /** Share of the whole image per colour name, largest first. */
  shares: { name: AzureColorName; share: number }[];
}

/** Hue in degrees, HSV saturation and value in 0..1. */
function hsv(r: number, g: number, b: number): { h: number; s: number; v: number; c: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const c = (max - min) / 255;
  const v = max / 255;
  const s = max === 0 ? 0 : (max - min) / max;
  let h = 0;
  if (max !== min) {
    if (max === r) h = 60 * (((g - b) / (max - min) + 6) % 6);
    else if (max === g) h = 60 * ((b - r) / (max - min) + 2);
    else h = 60 * ((r - g) / (max - min) + 4);
  }
  return { h, s, v, c };
}

export function colorName(r: number, g: number, b: number): AzureColorName {
  const { h, s, v, c } = hsv(r, g, b);
  if (v < 0.18) return 'Black';
  if (c < 0.1 || s < 0.15) {
    if (v > 0.85) return 'White';
    if (v < 0.3) return 'Black';
    return 'Gray';
  }
  if (h < 15 || h >= 345) {
    if (v < 0.4) return 'Brown';
    if (s < 0.5 && v > 0.75) return 'Pink';
    return 'Red';
  }
  if (h < 45) return v < 0.65 || s < 0.4 ? 'Brown' : 'Orange';
  if (h < 70) return v < 0.5 ? 'Brown' : 'Yellow';
  if (h < 165) return 'Green';
  if (h < 195) return 'Teal';
  if (h < 255) return 'Blue';
  if (h < 290) return 'Purple';
  return v < 0.5 ? 'Purple' : 'Pink';
}

const hex = (n: number): string =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, '0')
    .toUpperCase();

function dominant(counts: Map<AzureColorName, number>): AzureColorName {
  let best: AzureColorName = 'Gray';
  let bestCount = -1;
  for (const [name, count] of counts) {
    if (count > bestCount) {
      best = name;
      bestCount = count;
    }
  }
  return best;
}

/**
 * @param rgb packed 8-bit RGB pixels (a thumbnail; ~100 px on the long side is plenty)
 */
export function analyzeColors(rgb: Uint8Array, width: number, height: number): ColorStats {
  const all = new Map<AzureColorName, number>();
  const border = new Map<AzureColorName, number>();
  const centre = new Map<AzureColorName, number>();
  const bx = Math.max(1, Math.round(width * 0.15));
  const by = Math.max(1, Math.round(height * 0.15));
  const cx0 = Math.floor(width * 0.25);
  const cx1 = Math.ceil(width * 0.75);
  const cy0 = Math.floor(height * 0.25);
  const cy1 = Math.ceil(height * 0.75);
  let greyish = 0;
  let chromaSum = 0;
  // Accent: most vivid hue family, weighted by how much of the image it covers.
  const hueBins = Array.from({ length: 12 }, () => ({ weight: 0, r: 0, g: 0, b: 0, n: 0 }));
  let sumR = 0;
  let sumG = 0;
  let sumB = 0;
  const n = width * height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const r = rgb[i] ?? 0;
      const g = rgb[i + 1] ?? 0;
      const b = rgb[i + 2] ?? 0;
      sumR += r;
      sumG += g;
      sumB += b;
      const name = colorName(r, g, b);
      all.set(name, (all.get(name) ?? 0) + 1);
      if (x < bx || x >= width - bx || y < by || y >= height - by) border.set(name, (border.get(name) ?? 0) + 1);
      if (x >= cx0 && x < cx1 && y >= cy0 && y < cy1) centre.set(name, (centre.get(name) ?? 0) + 1);
      const { h, s, v, c } = hsv(r, g, b);
      chromaSum += c;
      if (c < 0.08) greyish++;
      if (s >= 0.3 && v >= 0.3) {
        const bin = hueBins[Math.floor(h / 30) % 12];
        if (bin) {
          bin.weight += s * v;
          bin.r += r;
          bin.g += g;
          bin.b += b;
          bin.n++;
        }
      }
    }
  }
  const isBW = greyish / n >= 0.97 && chromaSum / n < 0.04;
  const shares = [...all.entries()]
    .map(([name, count]) => ({ name, share: count / n }))
    .sort((a, b) => b.share - a.share);
  const dominantColors = shares
    .filter((s, i) => i === 0 || s.share >= 0.1)
    .slice(0, 3)
    .map((s) => s.name);
  let accentColor: string;
  const best = hueBins.reduce((a, b) => (b.weight > a.weight ? b : a));
  if (!isBW && best.n > 0 && best.n / n >= 0.005) {
    accentColor = hex(best.r / best.n) + hex(best.g / best.n) + hex(best.b / best.n);
  } else {
    accentColor = hex(sumR / n) + hex(sumG / n) + hex(sumB / n);
  }
  return {
    dominantColorForeground: dominant(centre.size ? centre : all),
    dominantColorBackground: dominant(border.size ? border : all),
    dominantColors,
    accentColor,
    isBWImg: isBW,
    isBwImg: isBW,
    shares,
  };
}
