/**
 * Face detection with landmarks-aligned age, gender and expressions, computing what face-api's
 * `detectAllFaces(input).withFaceLandmarks().withFaceExpressions().withAgeAndGender()` computes,
 * with less work:
 *
 * - the SSD MobileNet v1 detector runs with fused layers (ssd-fused.ts);
 * - each per-face network runs once on a batch of all faces instead of once per face;
 * - the aligned face crops are cut once and shared by the expression and age/gender networks
 *   (face-api cuts them once per network).
 *
 * The networks are private instances (face-api's global `nets` are left alone), so tests can
 * compare against face-api's own chain. Runs inside the face detection worker.
 */
import type * as FaceApiNamespace from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type * as TfNamespace from '@tensorflow/tfjs';
import { createFusedSsd, type SsdParams } from './ssd-fused.js';

type FaceApi = typeof FaceApiNamespace;
type Tf = typeof TfNamespace;
/** face-api's .d.ts declares its own copy of the tfjs classes; at run time they are the same. */
type FaceApiTensor = Parameters<FaceApi['extractFaceTensors']>[0];

export interface PipelineFace {
  /** Detector box in input pixels. */
  box: { x: number; y: number; width: number; height: number };
  score: number;
  age: number;
  gender: 'male' | 'female';
  /** face-api expression name → probability. */
  expressions: Record<string, number>;
  /** The face-recognition network's 128 numbers (only when asked: `detect(input, { descriptors: true })`). */
  descriptor?: number[];
}

export interface FacePipelineOptions {
  minConfidence: number;
  maxFaces: number;
}

export interface FacePipeline {
  /**
   * Faces of an RGB image tensor [height, width, 3] (int32 0–255); the tensor is not disposed. `descriptors`: also
   * each face's recognition descriptor (People), from the same aligned crops; the network loads on first use.
   */
  detect(input: TfNamespace.Tensor3D, options?: { descriptors?: boolean }): Promise<PipelineFace[]>;
  /** Runs every network once (the first run of each sets up its kernels). */
  warmUp(): Promise<void>;
  dispose(): void;
}

const asArray = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
/** xs[i], which must exist (one result per face). */
function at<T>(xs: T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`face pipeline: no result for face ${i}`);
  return x;
}

export async function createFacePipeline(
  tf: Tf,
  faceapi: FaceApi,
  modelDir: string,
  options: FacePipelineOptions,
): Promise<FacePipeline> {
  const ssd = new faceapi.SsdMobilenetv1();
  const landmarkNet = new faceapi.FaceLandmark68Net();
  const expressionNet = new faceapi.FaceExpressionNet();
  const ageGenderNet = new faceapi.AgeGenderNet();
  await Promise.all([ssd, landmarkNet, expressionNet, ageGenderNet].map((net) => net.loadFromDisk(modelDir)));
  const fused = createFusedSsd(tf, ssd.params as unknown as SsdParams);
  // locateFaces() (input sizing, score threshold, non-max suppression) stays face-api's.
  ssd.forwardInput = fused.forwardInput as unknown as typeof ssd.forwardInput;
  const ssdOptions = new faceapi.SsdMobilenetv1Options({
    minConfidence: options.minConfidence,
    maxResults: options.maxFaces,
  });

  let recognitionNet: Promise<FaceApiNamespace.FaceRecognitionNet> | undefined;
  const recognition = () => {
    recognitionNet ??= (async () => {
      const net = new faceapi.FaceRecognitionNet();
      await net.loadFromDisk(modelDir);
      return net;
    })();
    return recognitionNet;
  };

  const detectAsIs = async (
    tensor: TfNamespace.Tensor3D,
    { descriptors = false }: { descriptors?: boolean } = {},
  ): Promise<PipelineFace[]> => {
    const input = tensor as unknown as FaceApiTensor;
    const [height = 0, width = 0] = tensor.shape;
    // extractFaceTensors() drops boxes that are empty once clipped to the image, which would
    // shift the per-face results against the faces: drop them first.
    const hasArea = (rect: FaceApiNamespace.Rect) => {
      const clipped = rect.clipAtImageBorders(width, height);
      return clipped.width > 0 && clipped.height > 0;
    };
    const detections = (await ssd.locateFaces(input, ssdOptions)).filter((d) => hasArea(d.box));
    if (detections.length === 0) return [];
    const crops = await faceapi.extractFaceTensors(input, detections);
    let landmarks: FaceApiNamespace.FaceLandmarks68[];
    try {
      landmarks = asArray(await landmarkNet.detectLandmarks(crops));
    } finally {
      for (const crop of crops) crop.dispose();
    }
    const withLandmarks = detections
      .map((detection, i) =>
        faceapi.extendWithFaceLandmarks(faceapi.extendWithFaceDetection({}, detection), at(landmarks, i)),
      )
      .filter((face) => hasArea(face.alignedRect.box));
    if (withLandmarks.length === 0) return [];
    const aligned = await faceapi.extractFaceTensors(
      input,
      withLandmarks.map((face) => face.alignedRect),
    );
    let expressions: FaceApiNamespace.FaceExpressions[];
    let ageGender: FaceApiNamespace.AgeAndGenderPrediction[];
    let described: Float32Array[] | undefined;
    try {
      expressions = asArray(await expressionNet.predictExpressions(aligned));
      ageGender = asArray(await ageGenderNet.predictAgeAndGender(aligned));
      if (descriptors) described = asArray(await (await recognition()).computeFaceDescriptor(aligned));
    } finally {
      for (const crop of aligned) crop.dispose();
    }
    return withLandmarks.map(({ detection }, i) => {
      const { box } = detection;
      return {
        box: { x: box.x, y: box.y, width: box.width, height: box.height },
        score: detection.score,
        age: at(ageGender, i).age,
        gender: at(ageGender, i).gender === 'male' ? 'male' : 'female',
        expressions: { ...(at(expressions, i) as unknown as Record<string, number>) },
        ...(described ? { descriptor: Array.from(at(described, i)) } : {}),
      };
    });
  };

  /**
   * The detector misses a face that fills the frame (a close-up, a cropped avatar): when the photo as it is shows
   * none, it looks again with the photo in the middle of a grey canvas twice its size, where such a face is of the
   * size it knows (docs/PRODUCT.md#people).
   */
  const detect = async (
    tensor: TfNamespace.Tensor3D,
    detectOptions: { descriptors?: boolean } = {},
  ): Promise<PipelineFace[]> => {
    const [height = 0, width = 0] = tensor.shape;
    // A box as tall or as wide as the whole photo is where the detector sees faces in fur and foliage: such a box
    // counts only if the second look, with room around it, finds it again.
    const faces = (await detectAsIs(tensor, detectOptions)).filter(
      (face) => face.box.width < 0.9 * width && face.box.height < 0.9 * height,
    );
    if (faces.length > 0) return faces;
    const pad = Math.round(Math.max(width, height) / 2);
    const padded = tf.pad(
      tensor,
      [
        [pad, pad],
        [pad, pad],
        [0, 0],
      ],
      128,
    ) as TfNamespace.Tensor3D;
    try {
      return (await detectAsIs(padded, detectOptions)).flatMap((face) => {
        const x = Math.max(0, face.box.x - pad);
        const y = Math.max(0, face.box.y - pad);
        const right = Math.min(width, face.box.x - pad + face.box.width);
        const bottom = Math.min(height, face.box.y - pad + face.box.height);
        return right > x && bottom > y ? [{ ...face, box: { x, y, width: right - x, height: bottom - y } }] : [];
      });
    } finally {
      padded.dispose();
    }
  };

  return {
    detect,
    async warmUp() {
      const blank = tf.zeros([64, 64, 3], 'int32') as TfNamespace.Tensor3D;
      try {
        await detect(blank); // no face: runs the detector only
        const crop = blank as unknown as FaceApiNamespace.tf.Tensor3D;
        await landmarkNet.detectLandmarks([crop]);
        await expressionNet.predictExpressions([crop]);
        await ageGenderNet.predictAgeAndGender([crop]);
      } finally {
        blank.dispose();
      }
    },
    dispose() {
      fused.dispose();
      for (const net of [ssd, landmarkNet, expressionNet, ageGenderNet]) net.dispose();
      void recognitionNet?.then((net) => net.dispose());
    },
  };
}
