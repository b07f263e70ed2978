import { useMutation } from '@tanstack/react-query';
import {
  FaceDetectionResult,
  ImageAnalysisResult,
  SpeechToTextResult,
  type TextToSpeechRequest,
} from '@atrium/contracts';
import { api } from '../../../lib/api-client';
import { sendOk } from '../../../lib/http';

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
  const response = await sendOk('/api/ai/text-to-speech', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'audio/mpeg' },
    body: JSON.stringify(body),
  });
  return response.blob();
}

export const useTranscribeAudio = () =>
  useMutation({ mutationFn: ({ audio, name }: { audio: Blob; name: string }) => transcribeAudio(audio, name) });
export const useSynthesizeSpeech = () => useMutation({ mutationFn: synthesizeSpeech });
export const useDetectFaces = () => useMutation({ mutationFn: detectFaces });
export const useAnalyzeImage = () => useMutation({ mutationFn: analyzeImage });
