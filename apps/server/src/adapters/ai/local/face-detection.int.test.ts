import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadMediaError, TooLargeError, UnsupportedMediaError } from './errors.js';
import { createFaceDetection, type FaceDetectionEngine } from './face-detection.js';
import { toAzureEmotion } from './face-types.js';
import { packageDir } from './packages.js';
import { peoplePhoto, tinyBmp } from './testing/images.js';

let faces: FaceDetectionEngine;
const photo = peoplePhoto();

beforeAll(async () => {
  faces = createFaceDetection();
  await faces.warmUp();
});
afterAll(async () => {
  await faces.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('face detection (face-api on tfjs-wasm, in a worker)', () => {
  it('finds the faces of a photo with Azure-shaped attributes, in original pixels', async () => {
    const result = await faces.detectFaces(photo);
    expect(result.length).toBeGreaterThanOrEqual(1);
    for (const face of result) {
      expect(face.faceId).toMatch(UUID);
      const r = face.faceRectangle;
      for (const v of [r.top, r.left, r.width, r.height]) expect(Number.isInteger(v)).toBe(true);
      expect(r.width).toBeGreaterThan(60); // faces are ~200 px wide in the 1920 px original
      expect(r.height).toBeGreaterThan(60);
      expect(r.left + r.width).toBeLessThanOrEqual(1920);
      expect(r.top + r.height).toBeLessThanOrEqual(1280);
      expect(r.width / r.height).toBeGreaterThan(0.5);
      expect(r.width / r.height).toBeLessThan(1.5);
      const a = face.faceAttributes;
      expect(a.age).toBeGreaterThan(10);
      expect(a.age).toBeLessThan(70);
      expect(['male', 'female']).toContain(a.gender);
      const e = a.emotion;
      expect(Object.keys(e).sort()).toEqual([
        'anger',
        'contempt',
        'disgust',
        'fear',
        'happiness',
        'neutral',
        'sadness',
        'surprise',
      ]);
      for (const v of Object.values(e)) expect(v).toBeGreaterThanOrEqual(0);
      expect(Object.values(e).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 2);
      expect(e.contempt).toBe(0);
    }
    // Largest first, like Azure.
    const areas = result.map((f) => f.faceRectangle.width * f.faceRectangle.height);
    expect([...areas].sort((a, b) => b - a)).toEqual(areas);

    // The same photo at half size gives rectangles at half the coordinates.
    const half = await sharp(photo).resize(960).jpeg({ quality: 92 }).toBuffer();
    const small = await faces.detectFaces(half);
    expect(small.length).toBe(result.length);
    const big = result[0]?.faceRectangle ?? { left: -1000, top: -1000, width: 0, height: 0 };
    const match = small.find(
      (f) => Math.abs(f.faceRectangle.left * 2 - big.left) < 30 && Math.abs(f.faceRectangle.top * 2 - big.top) < 30,
    );
    expect(match).toBeDefined();
    expect(Math.abs((match?.faceRectangle.width ?? -1000) * 2 - big.width)).toBeLessThan(30);
  });

  it('finds a face that fills the frame, a close-up the detector alone misses', async () => {
    // face-api's demo sample4.jpg (1920×1448): a face at 256,183, 163×247 px, labelled in bench/faces/labels.json.
    const face = { left: 256, top: 183, width: 163, height: 247 };
    const demo = readFileSync(path.join(packageDir('@vladmandic/face-api', 'test'), 'demo', 'sample4.jpg'));
    for (const k of [1.15, 1.8]) {
      const side = Math.round(face.height * k);
      const closeUp = await sharp(demo)
        .extract({
          left: Math.round(face.left + face.width / 2 - side / 2),
          top: Math.round(face.top + face.height / 2 - side / 2),
          width: side,
          height: side,
        })
        .resize(420, 420)
        .jpeg({ quality: 92 })
        .toBuffer();
      const found = await faces.detectFaces(closeUp);
      expect(found, `a close-up at ${k}× the face`).toHaveLength(1);
      // The box is the face, in the close-up's own pixels: about the middle, most of the frame.
      const r = found[0]?.faceRectangle ?? { left: 0, top: 0, width: 0, height: 0 };
      expect(r.left + r.width / 2).toBeGreaterThan(150);
      expect(r.left + r.width / 2).toBeLessThan(270);
      expect(r.height).toBeGreaterThan(420 / k / 2);
      expect(r.left + r.width).toBeLessThanOrEqual(420);
    }
  });

  it('finds no face in a plain generated image', async () => {
    const plain = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 180, b: 120 } },
    })
      .png()
      .toBuffer();
    await expect(faces.detectFaces(plain)).resolves.toEqual([]);
  });

  it('rejects GIF and BMP with UnsupportedMediaError', async () => {
    const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#ff0000' } })
      .gif()
      .toBuffer();
    await expect(faces.detectFaces(gif)).rejects.toBeInstanceOf(UnsupportedMediaError);
    await expect(faces.detectFaces(tinyBmp())).rejects.toBeInstanceOf(UnsupportedMediaError);
    await expect(faces.detectFaces(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(UnsupportedMediaError);
  });

  it('rejects a truncated JPEG with BadMediaError', async () => {
    const truncated = photo.subarray(0, Math.floor(photo.length / 2));
    await expect(faces.detectFaces(truncated)).rejects.toBeInstanceOf(BadMediaError);
    await expect(faces.detectFaces(photo.subarray(0, 200))).rejects.toBeInstanceOf(BadMediaError);
  });

  it('enforces byte and pixel limits with TooLargeError', async () => {
    const strict = createFaceDetection({ maxBytes: 100_000, maxPixels: 1_000_000 });
    try {
      await expect(strict.detectFaces(photo)).rejects.toBeInstanceOf(TooLargeError); // 140 kB
      const big = await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#888' } })
        .png()
        .toBuffer();
      const error = await strict.detectFaces(big).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TooLargeError);
      expect((error as Error).message).toContain('megapixels');
      expect(strict.state().status).toBe('idle'); // rejected before any worker started
    } finally {
      await strict.close();
    }
  });
});

describe('toAzureEmotion', () => {
  it('maps face-api expressions to Azure names and normalises', () => {
    expect(
      toAzureEmotion({
        neutral: 0.5,
        happy: 0.3,
        sad: 0.1,
        angry: 0.05,
        fearful: 0.03,
        disgusted: 0.01,
        surprised: 0.01,
      }),
    ).toEqual({
      anger: 0.05,
      contempt: 0,
      disgust: 0.01,
      fear: 0.03,
      happiness: 0.3,
      neutral: 0.5,
      sadness: 0.1,
      surprise: 0.01,
    });
  });
});
