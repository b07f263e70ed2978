import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AZURE_COLORS } from './colors.js';
import { BadMediaError, UnsupportedMediaError } from './errors.js';
import { createImageAnalysis, type ImageAnalysisEngine } from './image-analysis.js';
import { peoplePhoto, tinyBmp } from './testing/images.js';

let vision: ImageAnalysisEngine;

beforeAll(async () => {
  vision = createImageAnalysis();
  await vision.warmUp();
});
afterAll(async () => {
  await vision.close();
});

describe('image analysis (CenterNet on tfjs-wasm + sharp colours, in a worker)', () => {
  it('flags a greyscale image as black and white', async () => {
    const square = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#eeeeee' } })
      .png()
      .toBuffer();
    const grey = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#101010' } })
      .composite([{ input: square, left: 90, top: 60 }])
      .greyscale()
      .jpeg()
      .toBuffer();
    const result = await vision.analyzeImage(grey);
    expect(result.color.isBWImg).toBe(true);
    expect(result.color.isBwImg).toBe(true);
    expect(result.color.dominantColorBackground).toBe('Black');
    expect(result.color.dominantColorForeground).toBe('White');
    expect(result.metadata).toEqual({ width: 300, height: 200, format: 'Jpeg' });
  });

  it('finds blue in a solid blue image and captions it honestly', async () => {
    const blue = await sharp({ create: { width: 200, height: 150, channels: 3, background: { r: 25, g: 70, b: 220 } } })
      .png()
      .toBuffer();
    const result = await vision.analyzeImage(blue);
    expect(result.color.dominantColors).toContain('Blue');
    expect(result.color.dominantColorBackground).toBe('Blue');
    expect(result.color.isBWImg).toBe(false);
    expect(result.color.accentColor).toMatch(/^[0-9A-F]{6}$/);
    expect(result.description.tags).toEqual([]);
    expect(result.description.captions[0]?.text).toMatch(/blue image/);
    expect(result.description.captions[0]?.confidence).toBeLessThan(0.5);
    expect(result.metadata.format).toBe('Png');
  });

  it('recognises people in a photo', async () => {
    const result = await vision.analyzeImage(peoplePhoto());
    expect(result.categories.some((c) => c.name.startsWith('people_'))).toBe(true);
    expect(result.description.tags).toContain('person');
    const caption = result.description.captions[0] ?? { text: '', confidence: 0 };
    expect(caption.text).toMatch(/people|person/);
    expect(caption.confidence).toBeGreaterThan(0.3);
    expect(caption.confidence).toBeLessThanOrEqual(1);
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.metadata).toEqual({ width: 1920, height: 1280, format: 'Jpeg' });
    for (const name of [
      result.color.dominantColorForeground,
      result.color.dominantColorBackground,
      ...result.color.dominantColors,
    ]) {
      expect(AZURE_COLORS).toContain(name);
    }
  });

  it('accepts GIF, rejects BMP and corrupt data', async () => {
    const gif = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#00aa00' } })
      .gif()
      .toBuffer();
    const result = await vision.analyzeImage(gif);
    expect(result.metadata.format).toBe('Gif');
    expect(result.color.dominantColors).toContain('Green');
    await expect(vision.analyzeImage(tinyBmp())).rejects.toBeInstanceOf(UnsupportedMediaError);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#00aa00' } })
      .png()
      .toBuffer();
    await expect(vision.analyzeImage(png.subarray(0, 40))).rejects.toBeInstanceOf(BadMediaError);
  });
});
