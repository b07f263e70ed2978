import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { requestContext } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import type { FilesService } from '../files';
import type { FoldersService } from '../spaces';
import { readSmallBody } from './dav.body';
import { etagOf } from './dav.props';
import type { DavLockRow, DavRepository } from './dav.repository';
import { segmentsOf, type DavRequest } from './dav.routes';
import type { DavTree, MissingNode, Node } from './dav.tree';
import { escapeXml, parseLockinfo } from './dav.xml';

const MAX_TIMEOUT_SECONDS = 3600;
const DEFAULT_TIMEOUT_SECONDS = 600;
const TOKEN_PREFIX = 'opaquelocktoken:';

/** One condition of an `If` header list (RFC 4918 §10.4). */
interface Condition {
  not: boolean;
  token?: string;
  etag?: string;
}
interface IfList {
  /** The tagged resource's path (a tagged list), else the request's. */
  tag?: string;
  conditions: Condition[];
}

/** Parses an `If` header; malformed → 400. */
function parseIf(header: string): IfList[] {
  const lists: IfList[] = [];
  let tag: string | undefined;
  const re = /\s*(?:<([^>]*)>|\(([^)]*)\))/y;
  let at = 0;
  while (at < header.length) {
    if (header.slice(at).trim() === '') break;
    re.lastIndex = at;
    const match = re.exec(header);
    if (!match) throw new AppError('BAD_REQUEST', 'The If header is malformed.');
    at = re.lastIndex;
    if (match[1] !== undefined) {
      tag = match[1];
      continue;
    }
    const conditions: Condition[] = [];
    const inner = /\s*(Not\s+)?(?:<([^>]*)>|\[([^\]]*)\])/iy;
    const text = match[2] ?? '';
    let pos = 0;
    while (pos < text.length && text.slice(pos).trim() !== '') {
      inner.lastIndex = pos;
      const c = inner.exec(text);
      if (!c) throw new AppError('BAD_REQUEST', 'The If header is malformed.');
      pos = inner.lastIndex;
      conditions.push({ not: Boolean(c[1]), ...(c[2] !== undefined ? { token: c[2] } : { etag: c[3] ?? '' }) });
    }
    if (conditions.length === 0) throw new AppError('BAD_REQUEST', 'The If header has an empty list.');
    lists.push({ ...(tag === undefined ? {} : { tag }), conditions });
  }
  return lists;
}

const lockIdsOf = (node: Node | MissingNode): string[] =>
  node.kind === 'virtual' ? [] : node.kind === 'missing' ? (node.above ?? []) : [...(node.above ?? []), node.id];

/** LOCK, UNLOCK and the lock checks every write makes (locks in `dav_locks`, shared by every instance). */
export function createDavLocks(deps: {
  repo: DavRepository;
  tree: DavTree;
  files: FilesService;
  folders: FoldersService;
  clock: Clock;
}) {
  const { repo, tree, files, folders, clock } = deps;
  const now = () => iso(clock.now());

  /** The live locks reaching `node`: on it, or depth-infinity locks on a folder above it. */
  async function locksReaching(node: Node | MissingNode): Promise<DavLockRow[]> {
    const ids = lockIdsOf(node);
    const own = node.kind === 'file' || node.kind === 'folder' ? node.id : undefined;
    return (await repo.locksOn(ids, now())).filter((lock) => lock.resource_id === own || lock.depth === 'infinity');
  }

  /**
   * Evaluates the request's `If` header (412 when false) and answers the lock tokens it submits. Conditions are
   * checked against the tagged resource, or `node`.
   */
  async function submitted(request: FastifyRequest, dav: DavRequest, node: Node | MissingNode): Promise<Set<string>> {
    const header = request.headers.if;
    if (typeof header !== 'string' || header.trim() === '') return new Set();
    const lists = parseIf(header);
    const tokens = new Set<string>();
    let anyTrue = false;
    for (const list of lists) {
      let target: Node | MissingNode = node;
      if (list.tag !== undefined) {
        try {
          const path = new URL(list.tag, 'http://tag.invalid').pathname;
          target = await tree.resolve(dav.actor, segmentsOf(path, dav.base).segments);
        } catch {
          continue;
        }
      }
      const locks = await locksReaching(target);
      const etag = target.kind === 'file' || target.kind === 'folder' ? etagOf(target) : undefined;
      const holds = list.conditions.every((c) => {
        const value =
          c.token !== undefined ? locks.some((l) => `${TOKEN_PREFIX}${l.token}` === c.token) : c.etag === etag;
        return c.not ? !value : value;
      });
      for (const c of list.conditions) if (!c.not && c.token !== undefined) tokens.add(c.token);
      anyTrue ||= holds;
    }
    if (!anyTrue) throw new AppError('PRECONDITION_FAILED', 'The If header’s conditions do not hold.');
    return tokens;
  }

  /** 423 unless every lock reaching `node` (one of them for shared locks) was submitted in the `If` header. */
  async function requireUnlocked(request: FastifyRequest, dav: DavRequest, node: Node | MissingNode): Promise<void> {
    const tokens = await submitted(request, dav, node);
    const locks = await locksReaching(node);
    if (locks.length === 0) return;
    if (locks.some((lock) => tokens.has(`${TOKEN_PREFIX}${lock.token}`))) return;
    throw new AppError('LOCKED', 'This file or folder is locked over WebDAV.');
  }

  /**
   * Only who took a lock refreshes or removes it: its token is no secret (`lockdiscovery` shows it to every reader),
   * so knowing it gives nothing to anyone else (docs/SECURITY.md).
   */
  const requireHolder = (lock: DavLockRow, dav: DavRequest) => {
    if (lock.user_id !== dav.actor.id)
      throw new AppError('FORBIDDEN', 'Only who took this lock can refresh or remove it.');
  };

  const activelock = (lock: DavLockRow, href: string) =>
    `<d:activelock><d:locktype><d:write/></d:locktype><d:lockscope><d:${lock.scope}/></d:lockscope>` +
    `<d:depth>${lock.depth === 'infinity' ? 'infinity' : '0'}</d:depth>${lock.owner ? `<d:owner>${lock.owner}</d:owner>` : ''}` +
    `<d:timeout>Second-${lock.timeout_seconds}</d:timeout><d:locktoken><d:href>${TOKEN_PREFIX}${lock.token}</d:href></d:locktoken>` +
    `<d:lockroot><d:href>${escapeXml(href)}</d:href></d:lockroot></d:activelock>`;

  const timeoutOf = (request: FastifyRequest): number => {
    const header = String(request.headers.timeout ?? '');
    const seconds = /Second-(\d+)/i.exec(header)?.[1];
    if (seconds !== undefined) return Math.min(Math.max(Number(seconds), 1), MAX_TIMEOUT_SECONDS);
    return /infinite/i.test(header) ? MAX_TIMEOUT_SECONDS : DEFAULT_TIMEOUT_SECONDS;
  };
  const expiry = (seconds: number) => iso(new Date(clock.now().getTime() + seconds * 1000));

  async function lock(request: FastifyRequest, reply: FastifyReply, dav: DavRequest, href: string) {
    const body = await readSmallBody(request);
    const info = parseLockinfo(body);
    let node = await tree.resolve(dav.actor, dav.segments);
    const send = (status: number, row: DavLockRow, token: boolean) => {
      if (token) void reply.header('lock-token', `<${TOKEN_PREFIX}${row.token}>`);
      return reply
        .status(status)
        .type('application/xml; charset=utf-8')
        .send(
          `<?xml version="1.0" encoding="utf-8"?>\n<d:prop xmlns:d="DAV:"><d:lockdiscovery>${activelock(row, href)}</d:lockdiscovery></d:prop>`,
        );
    };
    if (!info) {
      // A refresh: the If header names the lock.
      const tokens = await submitted(request, dav, node);
      const locks = await locksReaching(node);
      const held = locks.find((l) => tokens.has(`${TOKEN_PREFIX}${l.token}`));
      if (!held) throw new AppError('PRECONDITION_FAILED', 'Name the lock to refresh in the If header.');
      requireHolder(held, dav);
      const seconds = timeoutOf(request);
      await repo.refreshLock(held.token, seconds, expiry(seconds));
      return send(200, { ...held, timeout_seconds: seconds }, false);
    }
    if (node.kind === 'virtual') throw new AppError('FORBIDDEN', 'This folder is part of the WebDAV tree.');
    const depthHeader = String(request.headers.depth ?? 'infinity').toLowerCase();
    if (depthHeader !== '0' && depthHeader !== 'infinity')
      throw new AppError('BAD_REQUEST', 'Depth must be 0 or infinity.');
    const existing = await locksReaching(node);
    if (existing.some((l) => l.scope === 'exclusive' || info.scope === 'exclusive')) {
      throw new AppError('LOCKED', 'This file or folder is already locked.');
    }
    let created = false;
    if (node.kind === 'missing') {
      // A lock on an unmapped URL makes an empty file there (RFC 4918 §9.10.4).
      if (!node.parent) throw new AppError('CONFLICT', 'The folder this path goes into does not exist.');
      const target = await folders.uploadTarget(dav.actor, { folderId: node.parent.id });
      await files.ingest(target, {
        fileName: node.name,
        stream: Readable.from([]),
        onConflict: 'fail',
        allowEmpty: true,
        context: { actor: dav.actor.ownerKey, ...requestContext(request) },
      });
      node = await tree.resolve(dav.actor, dav.segments);
      if (node.kind !== 'file') throw new AppError('CONFLICT', 'The file could not be made.');
      created = true;
    } else if (node.kind === 'file') {
      await files.authorize(dav.actor, node.id, 'write');
    } else {
      await folders.authorize(dav.actor, node.id, 'write');
    }
    const seconds = timeoutOf(request);
    const row: DavLockRow = {
      token: randomUUID(),
      resource_id: node.id,
      user_id: dav.actor.id,
      scope: info.scope,
      depth: node.kind === 'folder' && depthHeader === 'infinity' ? 'infinity' : '0',
      owner: info.owner,
      timeout_seconds: seconds,
      expires_at: expiry(seconds),
      created_at: now(),
    };
    await repo.deleteExpiredLocks(now());
    await repo.insertLock(row);
    return send(created ? 201 : 200, row, true);
  }

  async function unlock(request: FastifyRequest, reply: FastifyReply, dav: DavRequest) {
    const header = String(request.headers['lock-token'] ?? '').trim();
    const token = /^<([^>]+)>$/.exec(header)?.[1];
    if (!token) throw new AppError('BAD_REQUEST', 'Lock-Token is missing.');
    const node = await tree.resolve(dav.actor, dav.segments);
    const held = (await locksReaching(node)).find((l) => `${TOKEN_PREFIX}${l.token}` === token);
    if (!held) throw new AppError('CONFLICT', 'No such lock on this resource.');
    requireHolder(held, dav);
    await repo.deleteLock(held.token);
    return reply.status(204).send();
  }

  /** The lockdiscovery value of `node`. */
  async function discovery(node: Node, href: string): Promise<string> {
    return (await locksReaching(node)).map((l) => activelock(l, href)).join('');
  }

  return { lock, unlock, requireUnlocked, discovery };
}

export type DavLocks = ReturnType<typeof createDavLocks>;
