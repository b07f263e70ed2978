import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { AppPasswordsService } from '../app-passwords';
import type { ChunkedUploads } from './dav.chunked';
import type { DavMethods } from './dav.methods';

/** Where the tree is mounted: the Nextcloud clients' path (Basic only) and `/dav/` (Basic or the session cookie). */
const REMOTE_BASE = '/remote.php/dav/files';
const DAV_BASE = '/dav';
const UPLOADS_BASE = '/remote.php/dav/uploads';

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
const ALL_METHODS = ['OPTIONS', 'HEAD', 'GET', 'PUT', 'DELETE', ...DAV_METHODS] as const;
export const ALLOW = ALL_METHODS.join(', ');
const REALM = 'Basic realm="Atrium", charset="UTF-8"';

/** The request as the DAV handlers see it: who, which tree path, and how to write hrefs. */
export interface DavRequest {
  actor: UserActor;
  segments: string[];
  /** The href prefix of the tree root, e.g. `/remote.php/dav/files/ann`. */
  base: string;
  /** Whether the path ended with `/`. */
  slash: boolean;
}

/** The decoded segments of `path` below `base`; 400 for bad escapes or `..`. */
export function segmentsOf(path: string, base: string): { segments: string[]; slash: boolean } {
  const rest = path.slice(base.length);
  const parts = rest.split('/').filter((s) => s !== '');
  const segments = parts.map((part) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      throw new AppError('BAD_REQUEST', 'The path is not valid percent-encoded UTF-8.');
    }
    if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\0')) {
      throw new AppError('BAD_REQUEST', 'The path names an invalid segment.');
    }
    return decoded.normalize('NFC');
  });
  return { segments, slash: rest.endsWith('/') };
}

/** Thrown when the request has no valid credentials: 401 with the Basic challenge. */
const unauthenticated = (message = 'Sign in with your owner key and an app password.') =>
  new AppError('UNAUTHENTICATED', message, { headers: { 'www-authenticate': REALM } });

/**
 * The WebDAV routes (docs/PRODUCT.md#webdav), protocol routes like tus's: not in the endpoint table, registered
 * here with `config.access: 'dav'` (an app password by HTTP Basic, or on `/dav/` the session cookie; the CSRF hook
 * covers the DAV methods that change something). Each method's work is `dav.methods.ts`.
 */
export async function registerDavRoutes(
  app: FastifyInstance,
  {
    appPasswords,
    methods,
    chunked,
  }: { appPasswords: AppPasswordsService; methods: DavMethods; chunked?: ChunkedUploads | undefined },
) {
  for (const method of DAV_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }

  async function authenticate(request: FastifyRequest, cookieAllowed: boolean): Promise<UserActor> {
    const header = request.headers.authorization;
    if (typeof header === 'string' && /^basic /i.test(header)) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw unauthenticated();
      const actor = await appPasswords.verify(decoded.slice(0, colon), decoded.slice(colon + 1), request.ip);
      if (!actor) throw unauthenticated('The owner key or the app password is wrong, or the password was revoked.');
      return actor;
    }
    if (cookieAllowed) {
      const user = await request.currentUser();
      if (user) return user;
    }
    throw unauthenticated();
  }

  await app.register(async (scope) => {
    // The handlers read request bodies themselves (streamed PUT; bounded XML).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    const handle = (remote: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('dav', '1, 2');
      const path = (request.raw.url ?? '/').split('?')[0] ?? '/';
      const ownerKey = remote ? (request.params as { userId?: string }).userId : undefined;
      const base = remote ? `${REMOTE_BASE}/${encodeURIComponent(ownerKey ?? '')}` : DAV_BASE;
      if (request.method === 'OPTIONS') {
        return reply.status(200).headers({ allow: ALLOW, 'ms-author-via': 'DAV', 'content-length': 0 }).send();
      }
      const actor = await authenticate(request, !remote);
      // The owner key rule: the path names the signed-in person (anyone else's tree is not theirs to see).
      if (remote && ownerKey !== actor.ownerKey) {
        throw new AppError('FORBIDDEN', 'This WebDAV path belongs to someone else: use your own owner key.');
      }
      const prefix = remote
        ? `${REMOTE_BASE}/${request.raw.url?.slice(REMOTE_BASE.length + 1).split('/')[0] ?? ''}`
        : DAV_BASE;
      const { segments, slash } = segmentsOf(path, prefix);
      // ownCloud's first chunking (`OC-Chunked`, `name-chunking-<id>-<n>-<i>` PUTs) would store each chunk as a file.
      if (request.method === 'PUT' && request.headers['oc-chunked'] !== undefined) {
        request.raw.resume();
        throw new AppError('NOT_IMPLEMENTED', 'This chunked upload protocol is not supported: update the client.');
      }
      return methods.handle(request, reply, { actor, segments, base, slash });
    };
    const config: Record<string, unknown> = { access: 'dav' };
    // Chunked uploads of the Nextcloud clients (dav.chunked.ts): someone else's uploads are not found.
    const uploads = async (request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('dav', '1, 2');
      if (request.method === 'OPTIONS') {
        return reply.status(200).headers({ allow: ALLOW, 'content-length': 0 }).send();
      }
      const actor = await authenticate(request, false);
      const path = (request.raw.url ?? '/').split('?')[0] ?? '/';
      const user = path.slice(UPLOADS_BASE.length + 1).split('/')[0] ?? '';
      const { segments } = segmentsOf(path, `${UPLOADS_BASE}/${user}`);
      if ((request.params as { userId?: string }).userId !== actor.ownerKey || segments.length > 2 || !chunked) {
        request.raw.resume();
        throw new AppError('NOT_FOUND', 'There is no such upload.');
      }
      return chunked.handle(request, reply, { actor, transferId: segments[0], chunk: segments[1] });
    };
    for (const method of ALL_METHODS) {
      for (const url of [`${UPLOADS_BASE}/:userId`, `${UPLOADS_BASE}/:userId/*`]) {
        scope.route({ method, url, config, schema: { hide: true }, handler: uploads });
      }
    }
    for (const method of ALL_METHODS) {
      for (const url of [`${REMOTE_BASE}/:userId`, `${REMOTE_BASE}/:userId/*`]) {
        scope.route({ method, url, config, schema: { hide: true }, handler: handle(true) });
      }
      for (const url of [DAV_BASE, `${DAV_BASE}/*`]) {
        scope.route({ method, url, config, schema: { hide: true }, handler: handle(false) });
      }
    }
  });
}
