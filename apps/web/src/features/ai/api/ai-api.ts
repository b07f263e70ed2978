import { useMutation } from '@tanstack/react-query';
import { ENDPOINTS, type FileRecord, type TextToSpeechRequest } from '@atrium/contracts';
import { endpointPath, type Endpoint } from '@atrium/contracts/endpoint';
import type { z } from 'zod';
import { request } from '../../../lib/api-client';
import { sendOk } from '../../../lib/http';

const { speechToText, faceDetection, imageAnalysis, textToSpeech } = ENDPOINTS.ai;

/** Sends a file as the multipart field "file" (the server also accepts raw bodies). */
const asForm = (file: Blob, name: string) => {
  const form = new FormData();
  form.append('file', file, name);
  return form;
};

/** What a service runs on: a fresh upload (or recording), or a stored file the caller may read (`?fileId=`). */
export type AiInput = { kind: 'upload'; blob: Blob; name: string } | { kind: 'stored'; file: FileRecord };

/** POSTs the upload as multipart, or nothing with `?fileId=` for a stored file (the server reads it). */
const postInput = <T extends z.ZodType>(
  declared: Pick<Endpoint, 'method' | 'path'> & { response: T },
  input: AiInput,
): Promise<z.infer<T>> =>
  request(declared.response, endpointPath(declared, {}, input.kind === 'stored' ? { fileId: input.file.id } : {}), {
    method: declared.method,
    ...(input.kind === 'upload' ? { body: asForm(input.blob, input.name) } : {}),
  });

export const transcribeAudio = (input: AiInput) => postInput(speechToText, input);

export const detectFaces = (input: AiInput) => postInput(faceDetection, input);

export const analyzeImage = (input: AiInput) => postInput(imageAnalysis, input);

/** Text-to-speech answers audio/mpeg, not JSON, so it is fetched directly. */
export async function synthesizeSpeech(text: string): Promise<Blob> {
  const body: TextToSpeechRequest = { text };
  const response = await sendOk(endpointPath(textToSpeech), {
    method: textToSpeech.method,
    headers: { 'content-type': 'application/json', accept: 'audio/mpeg' },
    body: JSON.stringify(body),
  });
  return response.blob();
}

export const useTranscribeAudio = () => useMutation({ mutationFn: transcribeAudio });
export const useSynthesizeSpeech = () => useMutation({ mutationFn: synthesizeSpeech });
export const useDetectFaces = () => useMutation({ mutationFn: detectFaces });
export const useAnalyzeImage = () => useMutation({ mutationFn: analyzeImage });
