import type { DetectedFace, FaceEmotion } from '@atrium/contracts';

/** The emotion with the highest score, e.g. "happiness". */
export function strongestEmotion(emotion: FaceEmotion): string {
  return (Object.entries(emotion) as [keyof FaceEmotion, number][]).reduce((best, entry) =>
    entry[1] > best[1] ? entry : best,
  )[0];
}

/** "Age 31 · female · happiness" */
export const faceLabel = (face: DetectedFace) =>
  `Age ${Math.round(face.faceAttributes.age)} · ${face.faceAttributes.gender} · ${strongestEmotion(face.faceAttributes.emotion)}`;
