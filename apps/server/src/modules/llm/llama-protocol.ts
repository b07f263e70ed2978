/**
 * The messages between the server and the process that runs an uploaded GGUF model (`llama.child.ts`), over
 * Node's IPC channel. One request runs at a time; `cancel` stops the one with that id.
 */
export type ToModel =
  | { type: 'load'; path: string; threads: number; contextSize: number }
  | { type: 'generate'; id: number; system: string; prompt: string; maxTokens: number }
  | { type: 'embed'; id: number; texts: string[] }
  | { type: 'cancel'; id: number };

export type FromModel =
  | { type: 'loaded'; trainContextSize: number; embeddingSize: number }
  | { type: 'load-failed'; message: string }
  | { type: 'chunk'; id: number; text: string }
  | { type: 'vectors'; id: number; vectors: number[][] }
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string };
