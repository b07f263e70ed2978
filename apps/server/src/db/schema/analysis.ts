// What background analysis finds: file insights, the per-workspace setting, and people with their faces.

/** What background analysis found in a file (migration 0018); JSON columns are text. */
export interface FileInsightsTable {
  file_id: string;
  status: 'pending' | 'running' | 'done' | 'failed' | 'unsupported';
  progress: number | null;
  content_sha: string;
  text: string | null;
  transcript: string | null;
  caption: string | null;
  tags: string | null;
  objects: string | null;
  faces: string | null;
  colors: string | null;
  engine: string | null;
  model_version: string | null;
  analysed_at: string | null;
  error: string | null;
  updated_at: string;
}

/** A workspace's analysis setting (migration 0018; no row: `on`). */
export interface AnalysisSettingsTable {
  workspace_id: string;
  analysis: 'on' | 'no-faces' | 'off';
  updated_at: string;
}

/** People is on for a space (migration 0020; no row: off). `space_key`: a workspace id or `personal:<owner key>`. */
export interface PeopleSettingsTable {
  space_key: string;
  workspace_id: string | null;
  updated_at: string;
}

/** A person of a space (migration 0020). */
export interface PeopleTable {
  id: string;
  space_key: string;
  workspace_id: string | null;
  name: string | null;
  cover_face_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A face found in a photo (migration 0020): box as fractions of the image, descriptor as JSON (128 numbers). */
export interface FacesTable {
  id: string;
  file_id: string;
  space_key: string;
  /** Null: removed from every person (never clustered again). */
  person_id: string | null;
  box_left: number;
  box_top: number;
  box_width: number;
  box_height: number;
  descriptor: string;
  created_at: string;
}
