/**
 * What this module offers to the ones that answer questions (Ask): an answer generator and a passage embedder.
 * Both are structural: the asking side declares the same shapes and never imports this module's internals.
 */
export interface GenerateInput {
  system: string;
  prompt: string;
  signal: AbortSignal;
  maxTokens: number;
}

export interface AnswerGenerator {
  readonly label: string;
  /** The answer's text as it is produced; ends early (no error) when `signal` aborts. */
  stream(input: GenerateInput): AsyncIterable<string>;
}

export interface PassageEmbedder {
  readonly label: string;
  readonly dimensions: number;
  /** One vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
