// Uploaded GGUF models (migration 0041).

export interface AiModelsTable {
  id: string;
  /** The uploaded file's name. */
  name: string;
  size_bytes: number;
  architecture: string;
  embedding_length: number | null;
  context_length: number | null;
  /** 'chat' | 'embeddings' | null (not in use); unique when set. */
  role: string | null;
  /** Owner key of the admin who uploaded it. */
  uploaded_by: string | null;
  uploaded_at: string;
}
