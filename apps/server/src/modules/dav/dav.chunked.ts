import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { FilesService } from '../files';
import type { FoldersService } from '../spaces';
import type { ChunkedRepository } from './dav.chunked.repository';
import type { DavLocks } from './dav.locks';
import { storageFull, storeFile, storedHeaders } from './dav.methods';
import { segmentsOf } from './dav.routes';
import type { DavTree } from './dav.tree';

/** Where a person's files are, in a `Destination` header. */
export const FILES_BASE = '/remote.php/dav/files';
export const UPLOADS_BASE = '/remote.php/dav/uploads';
/** Chunks are blobs under this prefix (not the files' prefix: the orphan sweep leaves them alone). */
const CHUNK_PREFIX = 'dav-uploads';
/** An upload with no new chunk for this long is abandoned: the sweep removes it (Nextcloud: 24 hours). */
export const CHUNKED_UPLOAD_IDLE_MS = 24 * 60 * 60 * 1000;
/** Unfinished uploads one person may have at once (their chunks do not count against a quota until assembled). */
export const MAX_OPEN_UPLOADS = 100;
const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

const notFound = () => new AppError('NOT_FOUND', 'There is no such upload.');
const escapeXml = (text: string) => text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);

/** The chunked upload request: who, and the transfer folder and chunk named in the path (if any). */
export interface ChunkedRequest {
  actor: UserActor;
  transferId?: string | undefined;
  chunk?: string | undefined;
}

/**
 * Chunked uploads of the Nextcloud clients (docs/PRODUCT.md#nextcloud-clients), versions 1 ("NG") and 2:
 * `MKCOL /remote.php/dav/uploads/{user}/{transfer}` (v2: `Destination` names the target, `OC-Total-Length` its size),
 * `PUT …/{transfer}/{chunk}` (the declared total checked against the upload limit and the target's quota before any
 * byte is read), `PROPFIND …/{transfer}` (the chunks there, to resume), `MOVE …/{transfer}/.file` with the target as
 * `Destination` (the chunks in order of their names, stored through the files service like any upload: a version
 * when the file exists, the same events, locks and `If` honoured), `DELETE …/{transfer}` (cancel). Someone else's
 * upload is not found; an idle one is swept after 24 hours.
 */
export function createChunkedUploads(deps: {
  repo: ChunkedRepository;
  blobs: BlobStore;
  tree: DavTree;
  files: FilesService;
  folders: FoldersService;
  locks: DavLocks;
  clock: Clock;
  maxUploadBytes: number;
}) {
  const { repo, blobs, tree, files, folders, clock } = deps;
  const prefixOf = (id: string) => `${CHUNK_PREFIX}/${id}/`;
  const filesBase = (actor: UserActor) => `${FILES_BASE}/${encodeURIComponent(actor.ownerKey)}`;

  async function chunksOf(id: string): Promise<{ name: string; key: string; size: number }[]> {
    const chunks: { name: string; key: string; size: number }[] = [];
    for await (const blob of blobs.list(prefixOf(id))) {
      chunks.push({ name: blob.key.slice(prefixOf(id).length), key: blob.key, size: blob.size });
    }
    // v2 names chunks 1…10000 (numeric order); v1 pads offsets with zeros (the same order).
    const numeric = chunks.every((c) => /^\d{1,20}$/.test(c.name));
    return chunks.sort((a, b) =>
      numeric ? Number(BigInt(a.name) - BigInt(b.name)) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  }

  /** The tree path a `Destination` header names in the person's own files (400 elsewhere). */
  function destinationOf(actor: UserActor, header: unknown): string[] {
    if (typeof header !== 'string' || header === '') throw new AppError('BAD_REQUEST', 'Destination is missing.');
    let path: string;
    try {
      path = new URL(header, 'http://destination.invalid').pathname;
    } catch {
      throw new AppError('BAD_REQUEST', 'Destination is not a URL.');
    }
    const base = filesBase(actor);
    if (!path.startsWith(`${base}/`)) throw new AppError('BAD_REQUEST', 'Destination is outside your files.');
    const { segments } = segmentsOf(path, base);
    if (segments.length === 0) throw new AppError('BAD_REQUEST', 'Destination names no file.');
    return segments;
  }

  /** Where a file at `segments` would be stored: its folder and space (409/403/404 as for PUT). */
  async function targetOf(actor: UserActor, segments: string[]) {
    const node = await tree.resolve(actor, segments);
    if (node.kind === 'folder' || node.kind === 'virtual') {
      throw new AppError('METHOD_NOT_ALLOWED', 'A folder is at this path: the upload needs a file path.');
    }
    let folderId: string;
    if (node.kind === 'missing') {
      if (!node.parent) throw new AppError('CONFLICT', 'The folder this path goes into does not exist.');
      folderId = node.parent.id;
    } else {
      if (node.folderId === null)
        throw new AppError('FORBIDDEN', 'A file shared with you directly cannot be replaced.');
      folderId = node.folderId;
    }
    return { node, folderId, target: await folders.uploadTarget(actor, { folderId }) };
  }

  /** A declared total length: within the upload limit and the target's quota (413 / 507). */
  async function checkDeclared(actor: UserActor, declared: number, destination: string[] | null) {
    if (!(declared > 0)) return;
    if (declared > deps.maxUploadBytes) throw files.tooLargeError();
    if (!destination) return;
    const { target } = await targetOf(actor, destination);
    if (declared > (await files.remainingQuota(target))) throw storageFull(await files.quotaErrorOf(target));
  }

  const totalLengthOf = (request: FastifyRequest): number | null => {
    const header = request.headers['oc-total-length'];
    if (header === undefined) return null;
    const value = Number(header);
    if (!Number.isSafeInteger(value) || value < 0) throw new AppError('BAD_REQUEST', 'OC-Total-Length is not valid.');
    return value;
  };

  async function mkcol(request: FastifyRequest, reply: FastifyReply, actor: UserActor, transferId: string) {
    request.raw.resume();
    if (await repo.find(actor.id, transferId)) throw new AppError('METHOD_NOT_ALLOWED', 'This upload already exists.');
    const destination = request.headers.destination ? destinationOf(actor, request.headers.destination) : null;
    const total = totalLengthOf(request);
    if (destination) await targetOf(actor, destination);
    await checkDeclared(actor, total ?? 0, destination);
    const now = iso(clock.now());
    const row = {
      id: randomUUID(),
      user_id: actor.id,
      transfer_id: transferId,
      destination: destination ? JSON.stringify(destination) : null,
      total_length: total,
      created_at: now,
      updated_at: now,
    };
    // Counted and stored in one step, so parallel MKCOLs cannot open more than the limit.
    if (!(await repo.insertWithin(row, MAX_OPEN_UPLOADS))) {
      throw new AppError('INSUFFICIENT_STORAGE', 'Too many unfinished uploads: finish or cancel some first.');
    }
    return reply.status(201).send();
  }

  async function putChunk(
    request: FastifyRequest,
    reply: FastifyReply,
    actor: UserActor,
    transferId: string,
    name: string,
  ) {
    const upload = await repo.find(actor.id, transferId);
    if (!upload) throw notFound();
    const destination = upload.destination ? (JSON.parse(upload.destination) as string[]) : null;
    const total = totalLengthOf(request) ?? upload.total_length;
    // Quota first, before any byte of the chunk is read.
    await checkDeclared(actor, total ?? 0, destination);
    const length = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
    const others = (await chunksOf(upload.id)).filter((c) => c.name !== name).reduce((sum, c) => sum + c.size, 0);
    const limit = Math.min(deps.maxUploadBytes, total ?? deps.maxUploadBytes);
    if (length !== null && others + length > limit) throw files.tooLargeError();
    const key = `${prefixOf(upload.id)}${name}`;
    let size: number;
    try {
      ({ size } = await blobs.put(key, request.raw));
    } catch (cause) {
      await blobs.delete(key);
      throw new AppError('BAD_REQUEST', 'The chunk did not arrive whole.', { cause });
    }
    // A chunk cut short keeps nothing half-written.
    if ((length !== null && size !== length) || others + size > limit) {
      await blobs.delete(key);
      throw length !== null && size !== length
        ? new AppError('BAD_REQUEST', 'The chunk did not arrive whole.')
        : files.tooLargeError();
    }
    await repo.touch(upload.id, iso(clock.now()), totalLengthOf(request));
    return reply.status(201).send();
  }

  async function assemble(request: FastifyRequest, reply: FastifyReply, actor: UserActor, transferId: string) {
    request.raw.resume();
    const upload = await repo.find(actor.id, transferId);
    if (!upload) throw notFound();
    const segments = destinationOf(actor, request.headers.destination);
    const { node, folderId, target } = await targetOf(actor, segments);
    const base = filesBase(actor);
    await deps.locks.requireUnlocked(request, { actor, segments, base, slash: false }, node);
    const chunks = await chunksOf(upload.id);
    const size = chunks.reduce((sum, c) => sum + c.size, 0);
    const declared = totalLengthOf(request) ?? upload.total_length;
    if (declared !== null && declared !== size) {
      throw new AppError('BAD_REQUEST', `The chunks hold ${size} bytes, not the ${declared} declared.`);
    }
    if (size > deps.maxUploadBytes) throw files.tooLargeError();
    if (size > (await files.remainingQuota(target))) throw storageFull(await files.quotaErrorOf(target));
    async function* bytes() {
      for (const chunk of chunks) yield* await blobs.get(chunk.key);
    }
    const stored = await storeFile(files, request, actor, target, {
      name: node.name,
      path: node.path,
      folderId,
      stream: Readable.from(bytes()),
    });
    await discard(upload.id);
    return reply
      .status(node.kind === 'missing' ? 201 : 204)
      .headers(storedHeaders(stored))
      .send();
  }

  async function discard(id: string) {
    for (const chunk of await chunksOf(id)) await blobs.delete(chunk.key);
    await repo.remove(id);
  }

  async function propfind(request: FastifyRequest, reply: FastifyReply, actor: UserActor, transferId: string) {
    request.raw.resume();
    const upload = await repo.find(actor.id, transferId);
    if (!upload) throw notFound();
    const href = `${UPLOADS_BASE}/${encodeURIComponent(actor.ownerKey)}/${encodeURIComponent(transferId)}`;
    const entry = (path: string, prop: string) =>
      `<d:response><d:href>${escapeXml(path)}</d:href><d:propstat><d:prop>${prop}</d:prop>` +
      '<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>';
    const depth = String(request.headers.depth ?? '1');
    const chunks = depth === '0' ? [] : await chunksOf(upload.id);
    const body =
      '<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">' +
      entry(`${href}/`, '<d:resourcetype><d:collection/></d:resourcetype>') +
      chunks
        .map((c) => entry(`${href}/${c.name}`, `<d:resourcetype/><d:getcontentlength>${c.size}</d:getcontentlength>`))
        .join('') +
      '</d:multistatus>\n';
    return reply.status(207).type('application/xml; charset=utf-8').send(body);
  }

  return {
    async handle(request: FastifyRequest, reply: FastifyReply, { actor, transferId, chunk }: ChunkedRequest) {
      const method = request.method;
      if (transferId === undefined) {
        request.raw.resume();
        if (method !== 'PROPFIND') throw new AppError('METHOD_NOT_ALLOWED', 'Name an upload folder.');
        const href = `${UPLOADS_BASE}/${encodeURIComponent(actor.ownerKey)}/`;
        return reply
          .status(207)
          .type('application/xml; charset=utf-8')
          .send(
            `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:"><d:response><d:href>${escapeXml(href)}</d:href>` +
              '<d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop>' +
              '<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>\n',
          );
      }
      if (!NAME.test(transferId) || (chunk !== undefined && chunk !== '.file' && !NAME.test(chunk))) {
        request.raw.resume();
        throw new AppError('BAD_REQUEST', 'Upload and chunk names are letters, digits, dots, dashes and underscores.');
      }
      if (chunk === undefined) {
        if (method === 'MKCOL') return mkcol(request, reply, actor, transferId);
        if (method === 'PROPFIND') return propfind(request, reply, actor, transferId);
        if (method === 'DELETE') {
          const upload = await repo.find(actor.id, transferId);
          if (!upload) throw notFound();
          await discard(upload.id);
          return reply.status(204).send();
        }
      } else if (method === 'PUT' && chunk !== '.file') {
        return putChunk(request, reply, actor, transferId, chunk);
      } else if (method === 'MOVE' && chunk === '.file') {
        return assemble(request, reply, actor, transferId);
      } else if (method === 'DELETE') {
        const upload = await repo.find(actor.id, transferId);
        if (!upload) throw notFound();
        await blobs.delete(`${prefixOf(upload.id)}${chunk}`);
        return reply.status(204).send();
      }
      request.raw.resume();
      throw new AppError('METHOD_NOT_ALLOWED', `${method} is not supported here.`);
    },
    /** Removes uploads idle for 24 hours with their chunks; returns how many. */
    async sweep(): Promise<number> {
      const idle = await repo.idleSince(iso(new Date(clock.now().getTime() - CHUNKED_UPLOAD_IDLE_MS)));
      for (const { id } of idle) await discard(id);
      return idle.length;
    },
  };
}

export type ChunkedUploads = ReturnType<typeof createChunkedUploads>;
