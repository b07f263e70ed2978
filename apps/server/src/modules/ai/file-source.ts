import type { SessionUser } from '../auth';

/** A stored file the caller may read, read whole (the AI services limit their inputs to a few MB). */
export interface SourceFile {
  buffer: Buffer;
  contentType: string;
  fileName: string;
}

/**
 * How the AI module reads a stored file by id (`?fileId=`). The files module
 * provides the implementation; it applies the file read rule (owner, workspace
 * member of any role, share recipient: `auth/policies/file.ts`), answers
 * FILE_NOT_FOUND for any other file, and refuses files larger than `maxBytes`
 * with PAYLOAD_TOO_LARGE.
 */
export interface FileSource {
  open(user: SessionUser, fileId: string, maxBytes: number): Promise<SourceFile>;
}
