/**
 * COCO labels (order of the CenterNet model's class index), their mapping to Azure Computer Vision
 * category names, and an honest caption built only from what the detector found.
 */
import type { AzureColorName } from './colors.js';

export const COCO_LABELS = [
  'person',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'backpack',
  'umbrella',
  'handbag',
  'tie',
  'suitcase',
  'frisbee',
  'skis',
  'snowboard',
  'sports ball',
  'kite',
  'baseball bat',
  'baseball glove',
  'skateboard',
  'surfboard',
  'tennis racket',
  'bottle',
  'wine glass',
  'cup',
  'fork',
  'knife',
  'spoon',
  'bowl',
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
  'chair',
  'couch',
  'potted plant',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'cell phone',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'scissors',
  'teddy bear',
  'hair drier',
  'toothbrush',
] as const;

export interface Detection {
  label: string;
  score: number;
  /** Pixels of the original image. */
  box: { x: number; y: number; width: number; height: number };
}

export interface Category {
  name: string;
  score: number;
}

const CATEGORY: Record<string, string> = {
  bird: 'animal_bird',
  cat: 'animal_cat',
  dog: 'animal_dog',
  horse: 'animal_horse',
  sheep: 'animal_',
  cow: 'animal_',
  elephant: 'animal_',
  bear: 'animal_',
  zebra: 'animal_',
  giraffe: 'animal_',
  'teddy bear': 'others_',
  bicycle: 'trans_bicycle',
  car: 'trans_car',
  bus: 'trans_bus',
  train: 'trans_trainstation',
  motorcycle: 'trans_',
  airplane: 'trans_',
  truck: 'trans_',
  boat: 'trans_',
  'traffic light': 'outdoor_street',
  'stop sign': 'outdoor_street',
  'parking meter': 'outdoor_street',
  'fire hydrant': 'outdoor_street',
  bench: 'outdoor_',
  pizza: 'food_pizza',
  'hot dog': 'food_fastfood',
  sandwich: 'food_fastfood',
  donut: 'food_',
  cake: 'food_',
  banana: 'food_',
  apple: 'food_',
  orange: 'food_',
  broccoli: 'food_',
  carrot: 'food_',
  'potted plant': 'plant_',
  chair: 'indoor_',
  couch: 'indoor_',
  bed: 'indoor_',
  'dining table': 'indoor_',
  toilet: 'indoor_',
  tv: 'indoor_',
  laptop: 'indoor_',
  microwave: 'indoor_',
  oven: 'indoor_',
  refrigerator: 'indoor_',
  sink: 'indoor_',
  frisbee: 'outdoor_',
  kite: 'outdoor_',
  skis: 'outdoor_',
  snowboard: 'outdoor_',
  surfboard: 'outdoor_',
};

/** Azure-style categories with the detector's confidence as score, best first. */
export function toCategories(detections: Detection[], imageArea: number): Category[] {
  const best = new Map<string, number>();
  const add = (name: string, score: number): void => {
    best.set(name, Math.max(best.get(name) ?? 0, score));
  };
  const people = detections.filter((d) => d.label === 'person');
  if (people.length > 0) {
    const top = Math.max(...people.map((d) => d.score));
    const largest = Math.max(...people.map((d) => d.box.width * d.box.height));
    if (people.length === 1 && largest / imageArea > 0.3) add('people_portrait', top);
    else if (people.length >= 6) add('people_many', top);
    else if (people.length >= 2) add('people_group', top);
    else add('people_', top);
  }
  for (const d of detections) {
    if (d.label === 'person') continue;
    add(CATEGORY[d.label] ?? 'others_', d.score);
  }
  return [...best.entries()].map(([name, score]) => ({ name, score: round4(score) })).sort((a, b) => b.score - a.score);
}

const PLURALS: Record<string, string> = {
  person: 'people',
  bus: 'buses',
  'wine glass': 'wine glasses',
  bench: 'benches',
  sandwich: 'sandwiches',
  knife: 'knives',
  mouse: 'mice',
  sheep: 'sheep',
  skis: 'pairs of skis',
  scissors: 'pairs of scissors',
  'hot dog': 'hot dogs',
  couch: 'couches',
  toothbrush: 'toothbrushes',
  'hair drier': 'hair driers',
  'cell phone': 'cell phones',
  tv: 'TVs',
  'potted plant': 'potted plants',
  'dining table': 'dining tables',
  'teddy bear': 'teddy bears',
  'sports ball': 'balls',
  'baseball glove': 'baseball gloves',
  glass: 'glasses',
};
const NUMBERS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

function phrase(label: string, count: number): string {
  const noun = label === 'tv' ? 'TV' : label === 'sports ball' ? 'ball' : label;
  if (count === 1) {
    if (label === 'skis' || label === 'scissors') return `a pair of ${label}`;
    return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
  }
  const plural = PLURALS[label] ?? `${noun}s`;
  return `${count < NUMBERS.length ? NUMBERS[count] : 'many'} ${plural}`;
}

function join(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export interface Caption {
  text: string;
  confidence: number;
}

/**
 * "two people and a dog": up to three kinds of object, most confident first. Confidence is the
 * mean of the best detector score of each kind mentioned. With nothing detected, a colour-only
 * caption ("a mostly blue image") whose confidence is a quarter of the dominant colour's share.
 */
export function buildCaption(
  detections: Detection[],
  colors: { isBW: boolean; shares: { name: AzureColorName; share: number }[] },
): Caption {
  const kinds = new Map<string, { count: number; best: number }>();
  for (const d of detections) {
    const k = kinds.get(d.label) ?? { count: 0, best: 0 };
    k.count++;
    k.best = Math.max(k.best, d.score);
    kinds.set(d.label, k);
  }
  const mentioned = [...kinds.entries()].sort((a, b) => b[1].best - a[1].best).slice(0, 3);
  if (mentioned.length > 0) {
    const text = join(mentioned.map(([label, k]) => phrase(label, k.count)));
    const confidence = mentioned.reduce((sum, [, k]) => sum + k.best, 0) / mentioned.length;
    return { text, confidence: round4(confidence) };
  }
  const top = colors.shares[0];
  if (colors.isBW) return { text: 'a black and white image', confidence: round4(0.25 * (top?.share ?? 1)) };
  if (!top) return { text: 'an image', confidence: 0 };
  const adverb = top.share >= 0.9 ? 'an almost entirely' : top.share >= 0.5 ? 'a mostly' : 'a partly';
  return { text: `${adverb} ${top.name.toLowerCase()} image`, confidence: round4(0.25 * top.share) };
}

export function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
