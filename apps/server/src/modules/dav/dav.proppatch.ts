import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { FilesService } from '../files';
import type { FoldersService } from '../spaces';
import { readSmallBody } from './dav.body';
import { hrefOf, MULTISTATUS_CLOSE, MULTISTATUS_OPEN } from './dav.props';
import type { DavRepository } from './dav.repository';
import type { DavRequest } from './dav.routes';
import type { MissingNode, Node } from './dav.tree';
import { DAV_NS, element, escapeXml, parseProppatch, statusLine } from './dav.xml';

/** DAV: properties the server computes: a PROPPATCH cannot set or remove them (403, RFC 4918 §9.2). */
const PROTECTED = new Set([
  'resourcetype',
  'getetag',
  'getlastmodified',
  'getcontentlength',
  'getcontenttype',
  'creationdate',
  'lockdiscovery',
  'supportedlock',
  'quota-used-bytes',
  'quota-available-bytes',
]);

/**
 * PROPPATCH: dead properties of a file or folder (migration 0036), all instructions or none (RFC 4918 §9.2). Needs
 * `write` on the item, as a rename would.
 */
export async function proppatch(
  deps: { repo: DavRepository; files: FilesService; folders: FoldersService },
  request: FastifyRequest,
  reply: FastifyReply,
  dav: DavRequest,
  node: Node | MissingNode,
) {
  const body = await readSmallBody(request);
  if (node.kind === 'missing') throw new AppError('NOT_FOUND', 'Nothing is at this WebDAV path.');
  const ops = parseProppatch(body);
  if (node.kind === 'virtual') throw new AppError('FORBIDDEN', 'This folder is part of the WebDAV tree.');
  if (node.kind === 'file') await deps.files.authorize(dav.actor, node.id, 'write');
  else await deps.folders.authorize(dav.actor, node.id, 'write');
  const refused = ops.filter((op) => op.prop.ns === DAV_NS && PROTECTED.has(op.prop.name));
  const statusOf = (op: (typeof ops)[number]) => (refused.length === 0 ? 200 : refused.includes(op) ? 403 : 424);
  if (refused.length === 0) {
    await deps.repo.patchProperties(
      node.id,
      ops.map((op) => ({ action: op.action, ns: op.prop.ns, name: op.prop.name, value: op.value })),
    );
  }
  const byStatus = new Map<number, string[]>();
  for (const op of ops) byStatus.set(statusOf(op), [...(byStatus.get(statusOf(op)) ?? []), element(op.prop)]);
  const propstats = [...byStatus]
    .map(
      ([status, props]) =>
        `<d:propstat><d:prop>${props.join('')}</d:prop><d:status>${statusLine(status)}</d:status></d:propstat>`,
    )
    .join('');
  return reply
    .status(207)
    .type('application/xml; charset=utf-8')
    .send(
      `${MULTISTATUS_OPEN}<d:response><d:href>${escapeXml(hrefOf(dav.base, node))}</d:href>${propstats}</d:response>\n${MULTISTATUS_CLOSE}`,
    );
}
