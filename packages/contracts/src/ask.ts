import { z } from 'zod';
import { endpoint } from './endpoint';

/** Longest question, in characters. */
export const ASK_QUESTION_MAX = 500;
/** The answer when no passage the asker may read is relevant (docs/PRODUCT.md#ask-your-files). */
export const ASK_NOT_FOUND = 'I could not find that in your files.';
/** Questions per user per minute. */
export const ASK_PER_MINUTE = 30;
export const ASK_RATE_MESSAGE = 'Too many questions in a minute. Please wait a moment and ask again.';

/** POST /api/ask */
export const AskRequest = z
  .object({
    question: z
      .string()
      .trim()
      .min(1, 'Type a question.')
      .max(ASK_QUESTION_MAX, `Ask with at most ${ASK_QUESTION_MAX} characters.`),
    workspaceId: z.string().min(1).max(200).optional().describe('Only the files of this workspace'),
    fileId: z.string().min(1).max(200).optional().describe('Only this file (the viewer’s "Summarise")'),
    summarise: z.boolean().optional().describe('Summarise `fileId` instead of answering a question'),
  })
  .meta({ id: 'AskRequest' });
export type AskRequest = z.infer<typeof AskRequest>;

export const AskCitation = z
  .object({
    n: z.number().int().positive().describe('The number the answer cites it by: [n]'),
    fileId: z.string(),
    fileName: z.string(),
    page: z.number().int().positive().optional().describe('The PDF page'),
    startSeconds: z.number().nonnegative().optional().describe('Where in a recording the passage starts'),
    text: z.string().describe('The passage'),
    highlights: z
      .array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
      .describe('The sentences of `text` that match the question (character offsets)'),
  })
  .meta({ id: 'AskCitation' });
export type AskCitation = z.infer<typeof AskCitation>;

export const AskResponse = z
  .object({
    mode: z.enum(['extractive', 'generated']),
    answer: z.string(),
    citations: z.array(AskCitation),
  })
  .meta({ id: 'AskResponse' });
export type AskResponse = z.infer<typeof AskResponse>;

/** The "Ask your files" endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const askEndpoints = {
  ask: endpoint({ method: 'POST', path: '/api/ask', body: AskRequest, response: AskResponse }),
} as const;
