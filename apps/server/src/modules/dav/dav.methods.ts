import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import { sendBlob } from '../../lib/http/send-blob';
import type { FilesService, UploadTarget } from '../files';
import type { FoldersService } from '../spaces';
import { createChunker } from './dav.chunks';
import { copyNode, moveNode, removeNode } from './dav.copy-move';
import {
  childHrefOf,
  etagOf,
  hrefOf,
  MULTISTATUS_CLOSE,
  MULTISTATUS_OPEN,
  needsExtras,
  propResponse,
  type NodeExtras,
} from './dav.props';
import { ALLOW, segmentsOf, type DavRequest } from './dav.routes';
import { fixedError, type DavTree, type FileNode, type FolderNode, type MissingNode, type Node } from './dav.tree';
import { errorBody, parsePropfind, type PropfindRequest } from './dav.xml';
import { readSmallBody } from './dav.body';
import type { DavLocks } from './dav.locks';

/** Children whose dead properties are read in one query, and the size of the chunks a multistatus is sent in. */
const PROPFIND_BATCH = 500;
const PROPFIND_CHUNK = 64 * 1024;
/** The dead properties of a resource that has none. */
const NO_DEAD: ReadonlyMap<string, string> = new Map();

const notFound = () => new AppError('NOT_FOUND', 'Nothing is at this WebDAV path.');
const conflict = () => new AppError('CONFLICT', 'The folder this path goes into does not exist.');

export interface DavMethodDeps {
  tree: DavTree;
  files: FilesService;
  folders: FoldersService;
  events: EventEmitter;
  maxUploadBytes: number;
  /** Dead properties and locks (PROPPATCH, LOCK); optional until they are in. */
  extras?: DavExtras | undefined;
}

/** PROPPATCH and LOCK, kept in their own file. */
export interface DavExtras {
  locks: DavLocks;
  deadProps(id: string): Promise<Map<string, string>>;
  /** The dead properties of many resources in one look-up (a PROPFIND's children). */
  deadPropsOf(ids: string[]): Promise<Map<string, Map<string, string>>>;
  /** Whether any resource has a dead property (one cheap look-up; usually none does). */
  anyDeadProps(): Promise<boolean>;
  proppatch(request: FastifyRequest, reply: FastifyReply, dav: DavRequest, node: Node | MissingNode): Promise<unknown>;
}

/** The WebDAV methods over the tree (docs/PRODUCT.md#webdav). */
export function createDavMethods(deps: DavMethodDeps) {
  const { tree, files, folders, events } = deps;

  async function existing(actor: UserActor, segments: string[]): Promise<Node> {
    const node = await tree.resolve(actor, segments);
    if (node.kind === 'missing') throw notFound();
    return node;
  }

  /** The `If` header holds and every lock reaching `node` was named in it (else 412 / 423). */
  const unlocked = async (request: FastifyRequest, dav: DavRequest, node: Node | MissingNode) =>
    deps.extras?.locks.requireUnlocked(request, dav, node);

  const lockdiscoveryAsked = (request: PropfindRequest) =>
    request.type === 'prop' && request.props.some((p) => p.ns === 'DAV:' && p.name === 'lockdiscovery');

  /** What the properties of `node` need beyond the listing; `known`: what a batch look-up already found. */
  async function extrasOf(
    actor: UserActor,
    node: Node,
    request: PropfindRequest,
    base: string,
    known?: Pick<NodeExtras, 'sha256' | 'dead'>,
  ): Promise<NodeExtras> {
    const extras: NodeExtras = {};
    if (node.kind === 'file' && needsExtras(request, 'sha256'))
      extras.sha256 = known ? known.sha256 : (await files.get(actor, node.id)).sha256;
    if (node.kind === 'folder' && needsExtras(request, 'quota')) {
      const target = await folders.uploadTarget(actor, { folderId: node.id }).catch(() => undefined);
      if (target) {
        const { quota, remaining } = await files.quotaBudget(target);
        extras.quota = { used: quota - remaining, available: remaining };
      }
    }
    if (node.kind !== 'virtual' && deps.extras) {
      extras.dead = known?.dead ?? (await deps.extras.deadProps(node.id));
      if (lockdiscoveryAsked(request))
        extras.lockdiscovery = await deps.extras.locks.discovery(node, hrefOf(base, node));
    }
    return extras;
  }

  async function propfind(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const depthHeader = String(request.headers.depth ?? '1').toLowerCase();
    const body = await readSmallBody(request);
    if (depthHeader === 'infinity') {
      return reply.status(403).type('application/xml; charset=utf-8').send(errorBody('propfind-finite-depth'));
    }
    if (depthHeader !== '0' && depthHeader !== '1')
      throw new AppError('BAD_REQUEST', 'Depth must be 0, 1 or infinity.');
    const what = parsePropfind(body);
    const node = await existing(dav.actor, dav.segments);
    const deep = depthHeader === '1' && node.kind !== 'file';
    // Dead properties are rare (only PROPPATCH sets them): when there is none at all, one look-up says so and a
    // listing asks for none of its children's (they were a tenth of a 10,000-entry answer's time).
    const noDead = deep && deps.extras !== undefined && !(await deps.extras.anyDeadProps());
    const first = propResponse(
      hrefOf(dav.base, node),
      node,
      what,
      await extrasOf(dav.actor, node, what, dav.base, noDead ? { sha256: undefined, dead: NO_DEAD } : undefined),
    );
    const quotaAsked = needsExtras(what, 'quota');
    const sumsAsked = needsExtras(what, 'sha256');
    const lockAsked = deps.extras !== undefined && lockdiscoveryAsked(what);
    const parentHref = hrefOf(dav.base, node);
    /** The responses of some children, written to `out`; their checksums and dead properties looked up at once. */
    async function* responses(batch: Node[]) {
      const ids = batch.flatMap((child) => (child.kind === 'virtual' ? [] : [child.id]));
      // A folder's listing carries its files' checksums: only the others (shared with me) are looked up.
      const fileIds = batch.flatMap((child) => (child.kind === 'file' && child.sha256 === undefined ? [child.id] : []));
      const dead = deps.extras && !noDead ? await deps.extras.deadPropsOf(ids) : undefined;
      const sums = sumsAsked && fileIds.length > 0 ? await files.sha256Of(dav.actor, fileIds) : undefined;
      for (const child of batch) {
        let response: string;
        if (child.kind === 'virtual') {
          response = propResponse(
            childHrefOf(parentHref, child),
            child,
            what,
            await extrasOf(dav.actor, child, what, dav.base),
          );
        } else {
          const known = {
            sha256: child.kind === 'file' ? (child.sha256 ?? sums?.get(child.id)) : undefined,
            dead: noDead ? NO_DEAD : dead ? (dead.get(child.id) ?? NO_DEAD) : undefined,
          };
          // What the batch found is all most requests need: no look-up (and no wait) per child.
          const lookUp = lockAsked || (child.kind === 'folder' && quotaAsked);
          const extras = lookUp
            ? await extrasOf(dav.actor, child, what, dav.base, known)
            : { sha256: child.kind === 'file' && sumsAsked ? known.sha256 : undefined, dead: known.dead };
          response = propResponse(childHrefOf(parentHref, child), child, what, extras);
        }
        const full = out.write(response);
        if (full) yield full;
      }
    }
    // Streamed: a folder of 10,000 entries is written as its pages are read, the XML sent in chunks of about 64 KiB
    // (not one write per entry), each built without a wait per entry. Each chunk goes out as bytes: a string would
    // be measured (Buffer.byteLength, for the chunked encoding) and then encoded again by the socket's write.
    const out = createChunker(PROPFIND_CHUNK);
    async function* body207() {
      for (const text of [MULTISTATUS_OPEN, first]) {
        const full = out.write(text);
        if (full) yield full;
      }
      if (deep) {
        for await (const page of tree.childPages(dav.actor, node as FolderNode)) {
          for (let at = 0; at < page.length; at += PROPFIND_BATCH)
            yield* responses(page.slice(at, at + PROPFIND_BATCH));
        }
      }
      const full = out.write(MULTISTATUS_CLOSE);
      if (full) yield full;
      yield out.rest();
    }
    return reply.status(207).type('application/xml; charset=utf-8').send(Readable.from(body207()));
  }

  async function get(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const node = await existing(dav.actor, dav.segments);
    if (node.kind !== 'file') {
      return reply
        .status(405)
        .header('allow', ALLOW)
        .send({ error: { code: 'METHOD_NOT_ALLOWED', message: 'A folder has no content to download: use PROPFIND.' } });
    }
    const file = await files.get(dav.actor, node.id);
    return sendBlob(request, reply, { ...files.blobOf(file), etag: etagOf(node) }, { disposition: 'attachment' });
  }

  async function put(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const node = await tree.resolve(dav.actor, dav.segments);
    if (node.kind === 'folder' || node.kind === 'virtual') {
      throw new AppError('METHOD_NOT_ALLOWED', 'A folder is at this path: PUT needs a file path.');
    }
    let folderId: string;
    if (node.kind === 'missing') {
      if (!node.parent) throw conflict();
      folderId = node.parent.id;
    } else {
      if (node.folderId === null)
        throw new AppError('FORBIDDEN', 'A file shared with you directly cannot be replaced over WebDAV.');
      folderId = node.folderId;
    }
    await unlocked(request, dav, node);
    const target = await folders.uploadTarget(dav.actor, { folderId });
    const declared = Number(request.headers['oc-total-length'] ?? request.headers['content-length'] ?? 0);
    if (Number.isFinite(declared) && declared > 0) {
      if (declared > deps.maxUploadBytes) throw files.tooLargeError();
      // A replaced file's bytes stay as a version, so the new ones count in full.
      if (declared > (await files.remainingQuota(target))) throw storageFull(await files.quotaErrorOf(target));
    }
    const stored = await storeFile(files, request, dav.actor, target, {
      name: node.name,
      path: node.path,
      folderId,
      stream: request.raw,
    });
    return reply
      .status(node.kind === 'missing' ? 201 : 204)
      .headers(storedHeaders(stored))
      .send();
  }

  async function mkcol(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const body = await readSmallBody(request);
    if (body.length > 0) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'MKCOL takes no body.');
    const node = await tree.resolve(dav.actor, dav.segments);
    if (node.kind !== 'missing') throw new AppError('METHOD_NOT_ALLOWED', 'Something already exists at this path.');
    if (!node.parent) throw conflict();
    await unlocked(request, dav, node);
    const folder = await folders.create(dav.actor, { name: node.name, parentId: node.parent.id, onConflict: 'fail' });
    return reply.status(201).header('oc-fileid', folder.id).send();
  }

  async function remove(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const node = await existing(dav.actor, dav.segments);
    await unlocked(request, dav, node);
    await removeNode({ files, folders, events }, request, dav.actor, node);
    return reply.status(204).send();
  }

  async function copyOrMove(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const source = await existing(dav.actor, dav.segments);
    const destination = request.headers.destination;
    if (typeof destination !== 'string' || destination === '')
      throw new AppError('BAD_REQUEST', 'Destination is missing.');
    let destPath: string;
    try {
      destPath = new URL(destination, 'http://destination.invalid').pathname;
    } catch {
      throw new AppError('BAD_REQUEST', 'Destination is not a URL.');
    }
    const base = dav.base.replace(/\/$/, '');
    if (destPath !== base && !destPath.startsWith(`${base}/`)) {
      // RFC 4918 allows 502 here; a destination the client chose is its mistake, so 403 (never a 5xx for a client).
      throw new AppError('FORBIDDEN', 'Destination is outside this WebDAV tree.');
    }
    const { segments } = segmentsOf(destPath, base);
    if (segments.join('/') === dav.segments.join('/'))
      throw new AppError('FORBIDDEN', 'Source and destination are the same.');
    if (segments.join('/').startsWith(`${dav.segments.join('/')}/`) && source.kind !== 'file') {
      throw new AppError('FORBIDDEN', 'A folder cannot go inside itself.');
    }
    const overwrite = String(request.headers.overwrite ?? 'T').toUpperCase() !== 'F';
    let target = await tree.resolve(dav.actor, segments);
    if (request.method === 'MOVE') await unlocked(request, dav, source);
    await unlocked(request, dav, target);
    const existed = target.kind !== 'missing';
    if (target.kind !== 'missing') {
      if (!overwrite)
        throw new AppError('PRECONDITION_FAILED', 'Something exists at the destination and Overwrite is F.');
      await removeNode({ files, folders, events }, request, dav.actor, target);
      target = await tree.resolve(dav.actor, segments);
    }
    if (target.kind !== 'missing') throw fixedError();
    if (!target.parent) throw conflict();
    const ops = { files, folders, events, tree };
    const depth = String(request.headers.depth ?? 'infinity').toLowerCase();
    if (request.method === 'MOVE') await moveNode(ops, request, dav.actor, source, target.parent, target.name);
    else await copyNode(ops, request, dav.actor, source, target.parent, target.name, depth !== '0');
    return reply.status(existed ? 204 : 201).send();
  }

  return {
    async handle(request: FastifyRequest, reply: FastifyReply, dav: DavRequest): Promise<unknown> {
      switch (request.method) {
        case 'PROPFIND':
          return propfind(request, reply, dav);
        case 'GET':
        case 'HEAD':
          return get(request, reply, dav);
        case 'PUT':
          return put(request, reply, dav);
        case 'MKCOL':
          return mkcol(request, reply, dav);
        case 'DELETE':
          return remove(request, reply, dav);
        case 'COPY':
        case 'MOVE':
          return copyOrMove(request, reply, dav);
        case 'PROPPATCH': {
          if (!deps.extras) throw new AppError('NOT_IMPLEMENTED', 'PROPPATCH is not supported.');
          const node = await tree.resolve(dav.actor, dav.segments);
          await unlocked(request, dav, node);
          return deps.extras.proppatch(request, reply, dav, node);
        }
        case 'LOCK':
          if (!deps.extras) throw new AppError('NOT_IMPLEMENTED', 'LOCK is not supported.');
          return deps.extras.locks.lock(request, reply, dav, requestHref(dav));
        case 'UNLOCK':
          if (!deps.extras) throw new AppError('NOT_IMPLEMENTED', 'UNLOCK is not supported.');
          return deps.extras.locks.unlock(request, reply, dav);
        default:
          throw new AppError('NOT_IMPLEMENTED', `${request.method} is not supported yet.`);
      }
    },
  };
}

export type DavMethods = ReturnType<typeof createDavMethods>;

/** The request's own href (as the client wrote the path, re-encoded). */
const requestHref = (dav: DavRequest) =>
  `${dav.base}/${dav.segments.map((s) => encodeURIComponent(s)).join('/')}${dav.slash && dav.segments.length > 0 ? '/' : ''}`;

/**
 * The modification time a client declares with `X-OC-Mtime` (Unix seconds, as the Nextcloud clients and rclone's
 * nextcloud vendor send it), as ISO-8601 UTC; undefined when absent or not a time from 1970 to 9999.
 */
export function mtimeOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-oc-mtime'];
  if (typeof header !== 'string' || !/^\d{1,12}(\.\d+)?$/.test(header.trim())) return undefined;
  const ms = Math.round(Number(header) * 1000);
  return ms > 0 && ms < Date.UTC(10000, 0, 1) ? new Date(ms).toISOString() : undefined;
}

/** WebDAV's 507 for a full space, with the app's message. */
export const storageFull = (error: AppError) => new AppError('INSUFFICIENT_STORAGE', error.message);

/**
 * Stores the bytes of a PUT or of an assembled chunked upload as the file at `path` (replacing one there, which keeps
 * a version), with the modification time the client declared (`X-OC-Mtime`); a full space answers 507.
 */
export async function storeFile(
  files: FilesService,
  request: FastifyRequest,
  actor: UserActor,
  target: UploadTarget,
  file: { name: string; path: string[]; folderId: string; stream: Readable },
): Promise<{ node: FileNode; mtimeAccepted: boolean }> {
  const modifiedAt = mtimeOf(request);
  let record;
  try {
    record = await files.ingest(target, {
      fileName: file.name,
      stream: file.stream,
      onConflict: 'replace',
      allowEmpty: true,
      modifiedAt,
      context: { actor: actor.ownerKey, ...requestContext(request) },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'QUOTA_EXCEEDED') throw storageFull(error);
    throw error;
  }
  const node: FileNode = {
    kind: 'file',
    name: record.fileName,
    path: file.path,
    id: record.id,
    size: record.size,
    contentType: record.contentType,
    uploadDate: record.uploadDate,
    modifiedAt,
    folderId: file.folderId,
  };
  return { node, mtimeAccepted: modifiedAt !== undefined };
}

/** The answer headers of a stored file: its ETag (also as the Nextcloud clients' OC-ETag), id and kept mtime. */
export const storedHeaders = ({ node, mtimeAccepted }: { node: FileNode; mtimeAccepted: boolean }) => ({
  etag: etagOf(node),
  'oc-etag': etagOf(node),
  'oc-fileid': node.id,
  ...(mtimeAccepted ? { 'x-oc-mtime': 'accepted' } : {}),
});
