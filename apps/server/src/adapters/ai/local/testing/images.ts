/** Test fixture helpers for images. Photos come from npm packages already installed (see README). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageDir } from '../packages.js';

/** A 1920×1280 JPEG of three people (face-api demo photo, taken by face-api's author, MIT package). */
export function peoplePhoto(): Buffer {
  return readFileSync(path.join(packageDir('@vladmandic/face-api', 'tests'), 'demo', 'sample1.jpg'));
}

/** A minimal valid 2×2 24-bit BMP. */
export function tinyBmp(): Buffer {
  const row = Buffer.from([0, 0, 255, 0, 0, 255, 0, 0]); // 2 red pixels + 2 bytes padding
  const pixels = Buffer.concat([row, row]);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}
