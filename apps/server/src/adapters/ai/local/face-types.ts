/** Azure Face v1.0 detect response items (returnFaceAttributes=age,gender,emotion). */
export interface AzureEmotion {
  anger: number;
  contempt: number;
  disgust: number;
  fear: number;
  happiness: number;
  neutral: number;
  sadness: number;
  surprise: number;
}

export interface AzureFace {
  faceId: string;
  faceRectangle: { top: number; left: number; width: number; height: number };
  faceAttributes: {
    age: number;
    gender: 'male' | 'female';
    emotion: AzureEmotion;
  };
  /** Not Azure's: the 128-number face-recognition descriptor, only when asked for (People). */
  descriptor?: number[];
}

/** face-api expression → Azure emotion. Azure's "contempt" has no counterpart and stays 0. */
const EMOTIONS: Record<string, keyof AzureEmotion> = {
  angry: 'anger',
  disgusted: 'disgust',
  fearful: 'fear',
  happy: 'happiness',
  neutral: 'neutral',
  sad: 'sadness',
  surprised: 'surprise',
};

export function toAzureEmotion(expressions: Record<string, number>): AzureEmotion {
  const out: AzureEmotion = {
    anger: 0,
    contempt: 0,
    disgust: 0,
    fear: 0,
    happiness: 0,
    neutral: 0,
    sadness: 0,
    surprise: 0,
  };
  let sum = 0;
  for (const [name, value] of Object.entries(expressions)) {
    const key = EMOTIONS[name];
    if (!key || !Number.isFinite(value)) continue;
    out[key] += Math.max(0, value);
    sum += Math.max(0, value);
  }
  if (sum <= 0) return { ...out, neutral: 1 };
  for (const key of Object.keys(out) as (keyof AzureEmotion)[]) out[key] = Math.round((out[key] / sum) * 1000) / 1000;
  return out;
}
