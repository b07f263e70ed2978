import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  FaceDetectionResult,
  type FileRecord,
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

/** What a service runs on: a fresh upload (or recording), or a stored file the caller may read (`?fileId=`). */
export type AiInput = { kind: 'upload'; blob: Blob; name: string } | { kind: 'stored'; file: FileRecord };

/** POSTs the upload as multipart, or nothing with `?fileId=` for a stored file (the server reads it). */
const postInput = <T extends z.ZodType>(schema: T, url: string, input: AiInput) =>
  input.kind === 'stored'
    ? api.post(schema, `${url}?fileId=${encodeURIComponent(input.file.id)}`)
    : api.post(schema, url, asForm(input.blob, input.name));

export const transcribeAudio = (input: AiInput) => postInput(SpeechToTextResult, '/api/ai/speech-to-text', input);

export const detectFaces = (input: AiInput) => postInput(FaceDetectionResult, '/api/ai/face-detection', input);

export const analyzeImage = (input: AiInput) => postInput(ImageAnalysisResult, '/api/ai/image-analysis', input);

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

export const useTranscribeAudio = () => useMutation({ mutationFn: transcribeAudio });
export const useSynthesizeSpeech = () => useMutation({ mutationFn: synthesizeSpeech });
export const useDetectFaces = () => useMutation({ mutationFn: detectFaces });
export const useAnalyzeImage = () => useMutation({ mutationFn: analyzeImage });
