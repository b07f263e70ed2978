import type { DetectedFace, ImageAnalysisResult, SpeechToTextResult } from '@atrium/contracts';

/** What /readyz and /api/ai/status report for one service. */
export interface AiEngineState {
  status: 'ok' | 'loading' | 'error' | 'disabled';
  message?: string;
  /** Local engines only: models in memory (loaded on first use, unloaded after AI_IDLE_UNLOAD_MINUTES). */
  loaded?: boolean;
}

/** Common to every provider of every service. */
interface ProviderBase {
  /** 'local', 'azure', 'openai' or 'none' (disabled). */
  readonly name: 'local' | 'azure' | 'openai' | 'none';
  state(): AiEngineState;
}

/** Speech-to-text: a WAV file in, Azure's short-audio answer out. */
export interface SpeechToTextProvider extends ProviderBase {
  /** `adaptationText`: text the speech is likely about; only the local engine uses it (docs/PRODUCT.md). */
  transcribe(wav: Buffer, options?: { adaptationText?: string }): Promise<SpeechToTextResult>;
}

/** Text or SSML in (exactly one), MP3 out (16 kHz, 32 kbit/s, mono where the provider allows). */
export interface TextToSpeechInput {
  text?: string;
  ssml?: string;
}
export interface TextToSpeechProvider extends ProviderBase {
  synthesize(input: TextToSpeechInput): Promise<Buffer>;
}

/** A detected face with its 128-number face-recognition descriptor (People). */
export type DescribedFace = DetectedFace & { descriptor: number[] };

/** A JPEG or PNG in, Azure Face v1.0 detect answer out. */
export interface FaceDetectionProvider extends ProviderBase {
  detectFaces(image: Buffer): Promise<DetectedFace[]>;
  /** The faces with their recognition descriptors: the local engine only (Azure's identification is not used). */
  describeFaces?(image: Buffer): Promise<DescribedFace[]>;
}

/** A JPEG or PNG in, Computer Vision v3.2 analyze answer (Categories, Description, Color) out. */
export interface ImageAnalysisProvider extends ProviderBase {
  analyzeImage(image: Buffer): Promise<ImageAnalysisResult>;
}

export interface AiProviders {
  speechToText: SpeechToTextProvider;
  textToSpeech: TextToSpeechProvider;
  faceDetection: FaceDetectionProvider;
  imageAnalysis: ImageAnalysisProvider;
  /** Starts loading local models in the background (never throws). */
  warmUp(): void;
  close(): Promise<void>;
}
