import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserActor } from '../../auth/actor';
import { sendOcs, type OcsVersion } from './ocs';

/**
 * The Nextcloud version Atrium answers as: the desktop client (3.x) and the mobile apps refuse servers older than
 * they support, and read `version` to pick protocol features. 28 is a version every current client accepts.
 */
export const NEXTCLOUD_VERSION = { major: 28, minor: 0, micro: 4, build: 1 } as const;
const VERSION_STRING = `${NEXTCLOUD_VERSION.major}.${NEXTCLOUD_VERSION.minor}.${NEXTCLOUD_VERSION.micro}`;

/** What the discovery routes need: who a Basic login is (app passwords), and a person's quota. */
export interface DiscoveryDeps {
  /**
   * Checks an app password (login name: the owner key; the app-passwords module's `verify`); null when it is wrong,
   * revoked or the user disabled.
   */
  verifyAppPassword?: ((loginName: string, password: string, ip: string) => Promise<UserActor | null>) | undefined;
  /** A person's personal-space quota and what is left of it, in bytes. */
  quotaOf(user: UserActor): Promise<{ total: number; free: number }>;
}

/** `Authorization: Basic …` split into login and password, or undefined. */
export function basicCredentials(header: string | undefined): { login: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,2048})\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const capabilities = () => ({
  version: {
    ...NEXTCLOUD_VERSION,
    string: VERSION_STRING,
    edition: '',
    extendedSupport: false,
  },
  capabilities: {
    core: { pollinterval: 60, 'webdav-root': 'remote.php/webdav', 'reference-api': false },
    // Chunked uploads (dav.chunked.ts, under /remote.php/dav/uploads/): v1 "NG" and v2 with a Destination.
    dav: { bulkupload: '', chunking: '1.0' },
    files: { bigfilechunking: true, undelete: true, versioning: true, blacklisted_files: ['.htaccess'] },
    checksums: { supportedTypes: ['SHA256'], preferredUploadType: 'SHA256' },
    theming: { name: 'Atrium', productName: 'Atrium', slogan: 'Your team workspace' },
  },
});

/**
 * Nextcloud client discovery (docs/PRODUCT.md#nextcloud-clients): `/status.php`, the OCS capabilities (v1 and v2)
 * and `/ocs/v{1,2}.php/cloud/user`. Protocol routes outside the endpoint table (their answers are Nextcloud's
 * shapes, XML by default), each declaring its access for the access-matrix walk; the user route checks its caller
 * itself because it takes HTTP Basic with an app password as well as the session cookie.
 */
export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryDeps) {
  const hidden = { hide: true };

  app.route({
    method: 'GET',
    url: '/status.php',
    config: { access: 'public' },
    schema: hidden,
    handler: async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({
        installed: true,
        maintenance: false,
        needsDbUpgrade: false,
        version: `${VERSION_STRING}.${NEXTCLOUD_VERSION.build}`,
        versionstring: VERSION_STRING,
        edition: '',
        productname: 'Atrium',
        extendedSupport: false,
      }),
  });

  /** The caller: an app password over Basic, or the session cookie with `OCS-APIRequest: true` (Nextcloud's CSRF rule). */
  const callerOf = async (request: FastifyRequest): Promise<UserActor | null> => {
    const basic = basicCredentials(request.headers.authorization);
    if (basic) return deps.verifyAppPassword ? deps.verifyAppPassword(basic.login, basic.password, request.ip) : null;
    if (String(request.headers['ocs-apirequest']).toLowerCase() !== 'true') return null;
    return request.currentUser();
  };

  for (const version of [1, 2] as OcsVersion[]) {
    const base = `/ocs/v${version}.php/cloud`;
    app.route({
      method: 'GET',
      url: `${base}/capabilities`,
      config: { access: 'public' },
      schema: hidden,
      handler: async (request, reply) => sendOcs(request, reply, version, capabilities()),
    });
    app.route({
      method: 'GET',
      url: `${base}/user`,
      config: { access: 'public' },
      schema: hidden,
      handler: async (request, reply) => {
        const user = await callerOf(request);
        if (!user) {
          reply.header('www-authenticate', 'Basic realm="Atrium", charset="UTF-8"');
          return sendOcs(request, reply, version, [], { status: 401, message: 'Current user is not logged in' });
        }
        const { total, free } = await deps.quotaOf(user);
        const used = Math.max(0, total - free);
        const displayName = user.name ?? user.nickname ?? user.ownerKey;
        return sendOcs(request, reply, version, {
          enabled: true,
          id: user.ownerKey,
          backend: 'Atrium',
          subadmin: [],
          quota: {
            free: Math.max(0, free),
            used,
            total,
            relative: total > 0 ? Math.round((used / total) * 10000) / 100 : 0,
            quota: total,
          },
          email: user.email ?? '',
          'display-name': displayName,
          displayname: displayName,
          groups: [],
          language: 'en',
          locale: '',
          backendCapabilities: { setDisplayName: false, setPassword: false },
        });
      },
    });
  }
}
