import { useMutation } from '@tanstack/react-query';
import {
  ErrorResponse,
  FaceDetectionResult,
  ImageAnalysisResult,
  SpeechToTextResult,
  type TextToSpeechRequest,
} from '@atrium/contracts';
import { api, ApiError } from '../../../lib/api-client';

/** Sends a file as the multipart field "file" (the server also accepts raw bodies). */
const asForm = (file: Blob, name: string) => {
  const form = new FormData();
  form.append('file', file, name);
  return form;
};

export const transcribeAudio = (audio: Blob, name = 'audio.wav') =>
  api.post(SpeechToTextResult, '/api/ai/speech-to-text', asForm(audio, name));

export const detectFaces = (image: File) =>
  api.post(FaceDetectionResult, '/api/ai/face-detection', asForm(image, image.name));

export const analyzeImage = (image: File) =>
  api.post(ImageAnalysisResult, '/api/ai/image-analysis', asForm(image, image.name));

/** Text-to-speech answers audio/mpeg, not JSON, so it is fetched directly. */
export async function synthesizeSpeech(text: string): Promise<Blob> {
  const body: TextToSpeechRequest = { text };
  let response: Response;
  try {
    response = await fetch('/api/ai/text-to-speech', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'audio/mpeg' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Please check your connection.');
  }
  if (!response.ok) {
    const parsed = ErrorResponse.safeParse(await response.json().catch(() => null));
    throw parsed.success
      ? new ApiError(response.status, parsed.data.error.code, parsed.data.error.message)
      : new ApiError(response.status, 'HTTP_ERROR', `Request failed with status ${response.status}`);
  }
  return response.blob();
}

export const useTranscribeAudio = () =>
  useMutation({ mutationFn: ({ audio, name }: { audio: Blob; name: string }) => transcribeAudio(audio, name) });
export const useSynthesizeSpeech = () => useMutation({ mutationFn: synthesizeSpeech });
export const useDetectFaces = () => useMutation({ mutationFn: detectFaces });
export const useAnalyzeImage = () => useMutation({ mutationFn: analyzeImage });
