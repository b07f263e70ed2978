import path from 'node:path';
import sharp from 'sharp';
import { packageDir } from '../src/adapters/ai/local/packages';

/**
 * Photos of known people for the People tests and bench: faces in face-api's own demo photos (found by its
 * detector once, boxes in the 1920 px originals), each a different person. A person's photos are augmentations of
 * the region around their face — crops with different margins, a mirror image, brighter and darker exposures, a
 * smaller scale — so every photo of a person is really that person, and photos of two people never are.
 */
export const KNOWN_FACES = [
  { person: 'sample1-a', sample: 'sample1.jpg', box: [414, 355, 177, 241] },
  { person: 'sample1-b', sample: 'sample1.jpg', box: [839, 420, 185, 227] },
  { person: 'sample1-c', sample: 'sample1.jpg', box: [1476, 200, 202, 241] },
  { person: 'sample3-a', sample: 'sample3.jpg', box: [585, 329, 198, 273] },
  { person: 'sample3-b', sample: 'sample3.jpg', box: [1515, 291, 170, 281] },
  { person: 'sample3-c', sample: 'sample3.jpg', box: [1076, 214, 219, 299] },
  { person: 'sample6-a', sample: 'sample6.jpg', box: [681, 321, 159, 306] },
  { person: 'sample6-b', sample: 'sample6.jpg', box: [1180, 304, 188, 281] },
  { person: 'sample6-c', sample: 'sample6.jpg', box: [1487, 262, 213, 297] },
  { person: 'sample6-d', sample: 'sample6.jpg', box: [249, 467, 210, 291] },
] as const;

/** The augmentations, in order: [margin around the face (× its size), mirrored, brightness, output width]. */
const VARIANTS: [number, boolean, number, number][] = [
  [1.0, false, 1.0, 640],
  [0.7, true, 1.0, 560],
  [1.3, false, 1.3, 720],
  [0.9, false, 0.75, 360],
  [1.1, true, 1.15, 480],
];

export interface KnownPhoto {
  person: string;
  variant: number;
  name: string;
  jpeg: Buffer;
}

/** `variants` photos (at most 5) of each of the first `people` known people (at most 10), JPEG. */
export async function knownPeoplePhotos(people: number, variants: number): Promise<KnownPhoto[]> {
  const demo = path.join(packageDir('@vladmandic/face-api', 'tests'), 'demo');
  const photos: KnownPhoto[] = [];
  for (const face of KNOWN_FACES.slice(0, people)) {
    const source = sharp(path.join(demo, face.sample));
    const { width = 0, height = 0 } = await source.metadata();
    const [x, y, w, h] = face.box;
    for (const [variant, [margin, mirror, brightness, outWidth]] of VARIANTS.slice(0, variants).entries()) {
      const left = Math.max(0, Math.round(x - w * margin));
      const top = Math.max(0, Math.round(y - h * margin));
      const right = Math.min(width, Math.round(x + w * (1 + margin)));
      const bottom = Math.min(height, Math.round(y + h * (1 + margin)));
      let image = sharp(path.join(demo, face.sample)).extract({
        left,
        top,
        width: right - left,
        height: bottom - top,
      });
      if (mirror) image = image.flop();
      if (brightness !== 1) image = image.modulate({ brightness });
      const jpeg = await image.resize(outWidth).jpeg({ quality: 88 }).toBuffer();
      photos.push({ person: face.person, variant, name: `${face.person}-${variant + 1}.jpg`, jpeg });
    }
  }
  return photos;
}
