/**
 * A faster forward pass for @vladmandic/face-api's SSD MobileNet v1 face detector, computing the
 * same network from the same loaded weights.
 *
 * face-api runs every layer as separate tfjs ops (conv2d, then add / batchNorm, then
 * clipByValue): three passes over each activation map. Here each layer is one fused XNNPACK
 * convolution with its bias and ReLU6 (batch normalisation folded into the depthwise filters
 * once at start-up), and each box predictor's two 1×1 convolutions (box encodings, classes) run
 * as one. The output decoding is face-api's, unchanged. Scores and boxes match face-api's to
 * float rounding (see face-detection.int.test.ts).
 */
import type * as TfNamespace from '@tensorflow/tfjs';

type Tf = typeof TfNamespace;
type T1 = TfNamespace.Tensor1D;
type T2 = TfNamespace.Tensor2D;
type T3 = TfNamespace.Tensor3D;
type T4 = TfNamespace.Tensor4D;

/** The parts of face-api's SsdMobilenetv1 params used here (see its ssdMobilenetv1/types.ts). */
interface PointwiseParams {
  filters: T4;
  batch_norm_offset: T1;
}
interface DepthwiseParams {
  filters: T4;
  batch_norm_scale: T1;
  batch_norm_offset: T1;
  batch_norm_mean: T1;
  batch_norm_variance: T1;
}
interface ConvParams {
  filters: T4;
  bias: T1;
}
interface BoxPredictorParams {
  box_encoding_predictor: ConvParams;
  class_predictor: ConvParams;
}
export interface SsdParams {
  mobilenetv1: { conv_0: PointwiseParams } & Record<
    string,
    { depthwise_conv: DepthwiseParams; pointwise_conv: PointwiseParams } | PointwiseParams
  >;
  prediction_layer: Record<string, PointwiseParams | BoxPredictorParams>;
  output_layer: { extra_dim: T3 };
}

/** The NetInput face-api passes to forwardInput (only what is used here). */
export interface SsdNetInput {
  toBatchTensor(inputSize: number, isCenterInputs?: boolean): T4;
}

const EPSILON = 0.0010000000474974513;

interface Fused {
  filter: T4;
  bias: T1;
}

/**
 * Precomputes the fused weights; returns face-api's forwardInput replacement and a dispose().
 * The SSD's params stay owned by face-api (not modified).
 */
export function createFusedSsd(tf: Tf, params: SsdParams) {
  const owned: TfNamespace.Tensor[] = [];
  const keep = <X extends TfNamespace.Tensor>(t: X): X => {
    owned.push(tf.keep(t));
    return t;
  };
  const pointwise = (p: PointwiseParams): Fused => ({ filter: p.filters, bias: p.batch_norm_offset });
  const depthwise = (p: DepthwiseParams): Fused =>
    tf.tidy(() => {
      // batchNorm(conv(x, w)) = conv(x, w·k) + (offset − mean·k), k = scale / √(variance + ε)
      const k = tf.div(p.batch_norm_scale, tf.sqrt(tf.add(p.batch_norm_variance, EPSILON)));
      const filter = tf.mul(p.filters, tf.reshape(k, [1, 1, -1, 1])) as T4;
      const bias = tf.sub(p.batch_norm_offset, tf.mul(p.batch_norm_mean, k)) as T1;
      return { filter: keep(filter), bias: keep(bias) };
    });
  const mobilenet = params.mobilenetv1;
  const conv0 = pointwise(mobilenet.conv_0);
  const pairs: { dw: Fused; pw: Fused; stride: 1 | 2 }[] = [];
  for (let i = 1; i <= 13; i++) {
    const pair = mobilenet[`conv_${i}`] as { depthwise_conv: DepthwiseParams; pointwise_conv: PointwiseParams };
    pairs.push({
      dw: depthwise(pair.depthwise_conv),
      pw: pointwise(pair.pointwise_conv),
      stride: [2, 4, 6, 12].includes(i) ? 2 : 1,
    });
  }
  const layer = params.prediction_layer;
  const extra = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => pointwise(layer[`conv_${i}`] as PointwiseParams));
  // Box encodings (4 per anchor) and classes (3 per anchor) from one convolution.
  const predictors = [0, 1, 2, 3, 4, 5].map((i) => {
    const p = layer[`box_predictor_${i}`] as BoxPredictorParams;
    const boxChannels = p.box_encoding_predictor.filters.shape[3];
    return tf.tidy(() => ({
      filter: keep(tf.concat([p.box_encoding_predictor.filters, p.class_predictor.filters], 3) as T4),
      bias: keep(tf.concat([p.box_encoding_predictor.bias, p.class_predictor.bias]) as T1),
      boxChannels,
    }));
  });
  const anchors = params.output_layer.extra_dim;

  const conv = (x: T4, f: Fused, strides: 1 | 2, activation: 'relu6' | 'linear' = 'relu6'): T4 =>
    tf.fused.conv2d({ x, filter: f.filter, strides, pad: 'same', bias: f.bias, activation });
  const dwConv = (x: T4, f: Fused, strides: 1 | 2): T4 =>
    tf.fused.depthwiseConv2d({ x, filter: f.filter, strides, pad: 'same', bias: f.bias, activation: 'relu6' });

  /** face-api's outputLayer (ssdMobilenetv1/outputLayer.ts), for batch size 1. */
  const decode = (boxPredictions: TfNamespace.Tensor2D, classPredictions: TfNamespace.Tensor2D) => {
    const [a0, a1, a2, a3] = columns(tf.reshape(anchors, [-1, 4]));
    const [v0, v1, v2, v3] = columns(boxPredictions);
    const size0 = tf.sub(a2, a0);
    const size1 = tf.sub(a3, a1);
    const center0 = tf.add(a0, tf.div(size0, 2));
    const center1 = tf.add(a1, tf.div(size1, 2));
    const div0 = tf.div(tf.mul(tf.exp(tf.div(v2, 5)), size0), 2);
    const add0 = tf.add(tf.mul(tf.div(v0, 10), size0), center0);
    const div1 = tf.div(tf.mul(tf.exp(tf.div(v3, 5)), size1), 2);
    const add1 = tf.add(tf.mul(tf.div(v1, 10), size1), center1);
    const boxes = tf.concat([tf.sub(add0, div0), tf.sub(add1, div1), tf.add(add0, div0), tf.add(add1, div1)], 1) as T2;
    const scores = tf.reshape(tf.sigmoid(tf.slice(classPredictions, [0, 1], [-1, 1])), [-1]) as T1;
    return { boxes, scores };
  };
  const columns = (x: TfNamespace.Tensor): [T2, T2, T2, T2] => {
    const [c0, c1, c2, c3] = tf.split(x as T2, 4, 1) as T2[];
    if (!c0 || !c1 || !c2 || !c3) throw new Error('expected 4 columns');
    return [c0, c1, c2, c3];
  };

  const forwardInput = (input: SsdNetInput): { boxes: T2[]; scores: T1[] } =>
    tf.tidy(() => {
      const batch = tf.cast(input.toBatchTensor(512, false), 'float32');
      if (batch.shape[0] !== 1) throw new Error('the fused SSD runs one image at a time');
      const x = tf.sub(tf.div(batch, 127.5), 1) as T4;
      let out = conv(x, conv0, 2);
      let conv11 = out;
      pairs.forEach((pair, i) => {
        out = conv(dwConv(out, pair.dw, pair.stride), pair.pw, 1);
        if (i + 1 === 11) conv11 = out;
      });
      // The extra feature layers: pairs of (1×1, stride 1) and (3×3, stride 2); the second of
      // each pair feeds a box predictor.
      const sources = [conv11, out];
      let y = out;
      extra.forEach((layer, i) => {
        y = conv(y, layer, i % 2 === 1 ? 2 : 1);
        if (i % 2 === 1) sources.push(y);
      });
      if (sources.length !== predictors.length) throw new Error('SSD layout mismatch');
      const boxParts: TfNamespace.Tensor2D[] = [];
      const classParts: TfNamespace.Tensor2D[] = [];
      predictors.forEach((p, i) => {
        const source = sources[i] as T4;
        const both = conv(source, p, 1, 'linear');
        const channels = both.shape[3];
        const boxes = tf.slice(both, [0, 0, 0, 0], [-1, -1, -1, p.boxChannels]);
        const classes = tf.slice(both, [0, 0, 0, p.boxChannels], [-1, -1, -1, channels - p.boxChannels]);
        boxParts.push(tf.reshape(boxes, [-1, 4]));
        classParts.push(tf.reshape(classes, [-1, 3]));
      });
      const { boxes, scores } = decode(tf.concat(boxParts, 0), tf.concat(classParts, 0));
      return { boxes: [boxes], scores: [scores] };
    });

  return {
    forwardInput,
    dispose: () => {
      for (const t of owned.splice(0)) t.dispose();
    },
  };
}
