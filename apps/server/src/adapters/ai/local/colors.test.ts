import { describe, expect, it } from 'vitest';
import { analyzeColors, colorName } from './colors.js';
import { buildCaption, toCategories } from './coco.js';

describe('colorName', () => {
  it.each([
    [[0, 0, 0], 'Black'],
    [[255, 255, 255], 'White'],
    [[128, 128, 128], 'Gray'],
    [[220, 20, 20], 'Red'],
    [[255, 140, 0], 'Orange'],
    [[240, 220, 30], 'Yellow'],
    [[30, 160, 40], 'Green'],
    [[0, 128, 128], 'Teal'],
    [[30, 60, 220], 'Blue'],
    [[120, 40, 180], 'Purple'],
    [[255, 105, 180], 'Pink'],
    [[120, 70, 30], 'Brown'],
  ] as const)('%j → %s', (rgb, name) => {
    expect(colorName(rgb[0], rgb[1], rgb[2])).toBe(name);
  });
});

describe('analyzeColors', () => {
  it('separates border (background) from centre (foreground)', () => {
    const w = 40;
    const h = 40;
    const px = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const centre = x >= 12 && x < 28 && y >= 12 && y < 28;
        px.set(centre ? [230, 30, 30] : [250, 250, 250], (y * w + x) * 3);
      }
    }
    const c = analyzeColors(px, w, h);
    expect(c.dominantColorBackground).toBe('White');
    expect(c.dominantColorForeground).toBe('Red');
    expect(c.dominantColors[0]).toBe('White');
    expect(c.accentColor).toBe('E61E1E');
    expect(c.isBWImg).toBe(false);
  });
});

describe('captions and categories', () => {
  const box = { x: 0, y: 0, width: 10, height: 10 };
  it('describes what was detected with the detector confidence', () => {
    const dets = [
      { label: 'person', score: 0.8, box },
      { label: 'person', score: 0.6, box },
      { label: 'dog', score: 0.5, box },
    ];
    expect(buildCaption(dets, { isBW: false, shares: [] })).toEqual({ text: 'two people and a dog', confidence: 0.65 });
    expect(toCategories(dets, 10_000)).toEqual([
      { name: 'people_group', score: 0.8 },
      { name: 'animal_dog', score: 0.5 },
    ]);
    expect(buildCaption([{ label: 'umbrella', score: 0.4, box }], { isBW: false, shares: [] }).text).toBe(
      'an umbrella',
    );
  });
});
