import type { FileRecord, FileVersionList } from '@atrium/contracts';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { BlobRecord } from '../../lib/http/send-blob';
import { iso } from '../../lib/time';
import type { RequestContext } from '../../lib/http/request-context';
import { VERSION_NOT_FOUND, type FilesCore } from './files.core';
import type { createFilesIngest } from './files.ingest';

/**
 * The versions room: a file's older versions (`FILE_VERSIONS_KEPT` of them), their bytes, and making one current
 * again (through the ingest room's `storeNewContent`, the one place a file gets new content).
 */
export function createFilesVersions(
  { repo, blobs, clock, versionsKept, authorized, recordChange }: FilesCore,
  ingest: Pick<ReturnType<typeof createFilesIngest>, 'storeNewContent'>,
) {
  return {
    /** The older versions of a file the actor may read, newest first. */
    async versions(actor: Actor, id: string): Promise<FileVersionList> {
      await authorized(actor, id, 'read');
      const rows = await repo.listVersions(id);
      return {
        versions: rows.map((row) => ({
          id: row.id,
          size: Number(row.size),
          contentType: row.content_type,
          sha256: row.sha256,
          uploadedBy:
            row.uploaded_by === null ? null : { id: row.uploaded_by, name: row.uploader_name ?? row.uploaded_by },
          createdAt: row.created_at,
        })),
        kept: versionsKept,
      };
    },

    /** What `sendBlob` needs to send version `versionId` of a file the actor may read (named as the file). */
    async versionBlob(actor: Actor, id: string, versionId: string): Promise<BlobRecord> {
      const file = await authorized(actor, id, 'read');
      const version = await repo.findVersion(id, versionId);
      if (!version) throw new AppError('NOT_FOUND', VERSION_NOT_FOUND);
      return {
        size: Number(version.size),
        etag: `"${version.sha256}"`,
        lastModified: new Date(version.created_at),
        contentType: version.content_type,
        fileName: file.fileName,
        open: (range) => blobs.get(version.blob_key, range),
      };
    },

    /** Makes version `versionId` the file's content; the current content becomes a version (`write` needed). */
    async restoreVersion(actor: Actor, id: string, versionId: string, context?: RequestContext): Promise<FileRecord> {
      await authorized(actor, id, 'write');
      const [row, version] = await Promise.all([repo.findById(id), repo.findVersion(id, versionId)]);
      if (!row) throw new AppError('FILE_NOT_FOUND');
      if (!version) throw new AppError('NOT_FOUND', VERSION_NOT_FOUND);
      const restored = await ingest.storeNewContent(
        row,
        {
          blob_key: version.blob_key,
          size: Number(version.size),
          sha256: version.sha256,
          content_type: version.content_type,
          upload_date: iso(clock.now()),
          uploaded_by: version.uploaded_by,
          modified_at: null,
        },
        actor.kind === 'user' ? actor.id : null,
        versionId,
      );
      await recordChange(
        'file.version_restored',
        id,
        { actor: actor.kind === 'user' ? actor.ownerKey : null, ...context },
        null,
        { name: restored.fileName, versionOf: version.created_at, size: restored.size },
      );
      return restored;
    },
  };
}
