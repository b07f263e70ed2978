import type { FolderNode, FileNode, Node } from './dav.tree';
import { DAV_NS, element, escapeXml, statusLine, type PropName, type PropfindRequest } from './dav.xml';

export const OC_NS = 'http://owncloud.org/ns';
export const NC_NS = 'http://nextcloud.org/ns';

/** Extra facts a property may need that the listing does not carry (asked for one resource at a time). */
export interface NodeExtras {
  sha256?: string | undefined;
  quota?: { used: number; available: number } | undefined;
  /** Dead properties (PROPPATCH): `ns name` → value XML. */
  dead?: Map<string, string> | undefined;
  lockdiscovery?: string | undefined;
}

/** A file's entity tag: changes with every new content (a new upload date), the same in PROPFIND and GET. */
export const etagOf = (node: FileNode | FolderNode): string =>
  node.kind === 'file'
    ? `"${node.id.replaceAll('-', '').slice(0, 16)}${Date.parse(node.uploadDate).toString(36)}${node.size.toString(36)}"`
    : `"${node.id.replaceAll('-', '').slice(0, 16)}${Date.parse(node.updatedAt).toString(36)}"`;

const key = (p: PropName) => `${p.ns} ${p.name}`;
const LIVE_DAV = [
  'resourcetype',
  'displayname',
  'getlastmodified',
  'creationdate',
  'getetag',
  'getcontentlength',
  'getcontenttype',
  'supportedlock',
  'lockdiscovery',
];
const ALLPROP = new Set(LIVE_DAV.map((name) => `${DAV_NS} ${name}`));
const SUPPORTED_LOCK =
  '<d:lockentry><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>' +
  '<d:lockentry><d:lockscope><d:shared/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>';

const permissions = (node: Node): string => {
  if (node.kind === 'virtual') return node.which === 'root' ? 'CK' : '';
  if (node.kind === 'file') return 'RGDNVW';
  return node.fixed ? 'RGCK' : 'RGDNVCK';
};

/** A date as the app stores it (`Date.prototype.toISOString`): then it is its own ISO form and easy to take apart. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WEEKDAYS = ['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

/**
 * `creationdate`: an ISO-8601 date. A 10,000-entry listing parsed and formatted 20,000 dates; the stored ones are
 * already in the form asked for.
 */
export const isoDate = (date: string): string => (CANONICAL_ISO.test(date) ? date : new Date(date).toISOString());

/** `getlastmodified`: the HTTP date (`Date.prototype.toUTCString`), taken apart from the stored ISO form. */
export function httpDate(date: string): string {
  if (!CANONICAL_ISO.test(date)) return new Date(date).toUTCString();
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const weekday = WEEKDAYS[((Math.floor(Date.UTC(year, month - 1, day) / DAY_MS) % 7) + 7) % 7];
  return `${weekday}, ${date.slice(8, 10)} ${MONTHS[month - 1]} ${date.slice(0, 4)} ${date.slice(11, 19)} GMT`;
}

/** The value of a live property of `node`, as XML content (undefined: it has none). */
function live(node: Node, prop: PropName, extras: NodeExtras): string | undefined {
  if (prop.ns === DAV_NS) {
    switch (prop.name) {
      case 'resourcetype':
        return node.kind === 'file' ? '' : '<d:collection/>';
      case 'displayname':
        return escapeXml(node.name);
      case 'getlastmodified':
        if (node.kind === 'virtual') return undefined;
        return httpDate(node.kind === 'file' ? (node.modifiedAt ?? node.uploadDate) : node.updatedAt);
      case 'creationdate':
        if (node.kind === 'virtual') return undefined;
        return isoDate(node.kind === 'file' ? node.uploadDate : node.createdAt);
      case 'getetag':
        return node.kind === 'virtual' ? undefined : escapeXml(etagOf(node));
      case 'getcontentlength':
        return node.kind === 'file' ? String(node.size) : undefined;
      case 'getcontenttype':
        return node.kind === 'file' ? escapeXml(node.contentType) : undefined;
      case 'supportedlock':
        return node.kind === 'virtual' ? undefined : SUPPORTED_LOCK;
      case 'lockdiscovery':
        return node.kind === 'virtual' ? undefined : (extras.lockdiscovery ?? '');
      case 'quota-used-bytes':
        return node.kind !== 'file' && extras.quota ? String(extras.quota.used) : undefined;
      case 'quota-available-bytes':
        return node.kind !== 'file' && extras.quota ? String(Math.max(0, extras.quota.available)) : undefined;
      default:
        return undefined;
    }
  }
  if (prop.ns === OC_NS) {
    switch (prop.name) {
      case 'fileid':
        return node.kind === 'virtual' ? undefined : escapeXml(node.id);
      case 'id':
        return node.kind === 'virtual' ? undefined : escapeXml(`${node.id}atrium`);
      case 'permissions':
        return permissions(node);
      case 'size':
        return node.kind === 'file' ? String(node.size) : node.kind === 'folder' ? '0' : undefined;
      case 'checksums':
        return node.kind === 'file' && extras.sha256 ? `<oc:checksum>SHA256:${extras.sha256}</oc:checksum>` : undefined;
      default:
        return undefined;
    }
  }
  if (prop.ns === NC_NS && prop.name === 'has-preview') {
    return node.kind === 'file' && /^image\/(jpeg|png|gif|webp)/.test(node.contentType) ? 'true' : 'false';
  }
  return undefined;
}

const LIVE_NAMES: PropName[] = [
  ...LIVE_DAV.map((name) => ({ ns: DAV_NS, name })),
  { ns: DAV_NS, name: 'quota-used-bytes' },
  { ns: DAV_NS, name: 'quota-available-bytes' },
  { ns: OC_NS, name: 'fileid' },
  { ns: OC_NS, name: 'id' },
  { ns: OC_NS, name: 'permissions' },
  { ns: OC_NS, name: 'size' },
  { ns: OC_NS, name: 'checksums' },
  { ns: NC_NS, name: 'has-preview' },
];

/** Whether answering `request` for a node needs its extras (one look-up per resource). */
export const needsExtras = (request: PropfindRequest, what: 'sha256' | 'quota'): boolean =>
  request.type === 'prop' &&
  request.props.some((p) =>
    what === 'sha256' ? p.ns === OC_NS && p.name === 'checksums' : p.ns === DAV_NS && p.name.startsWith('quota-'),
  );

/** A property with its tags written once: `<open>content<close>`, or `empty` without content. */
interface CompiledProp {
  prop: PropName;
  empty: string;
  open: string;
  close: string;
}
const compile = (prop: PropName): CompiledProp => {
  const [open = '', close = ''] = element(prop, '\u0000').split('\u0000');
  return { prop, empty: element(prop), open, close };
};
/** The properties a request names, once each, in its order. */
const compileAll = (props: PropName[]): CompiledProp[] => {
  const seen = new Set<string>();
  return props.filter((prop) => !seen.has(key(prop)) && seen.add(key(prop))).map(compile);
};
const ALLPROP_LIVE = LIVE_NAMES.filter((p) => ALLPROP.has(key(p)));
/**
 * What a `prop` request, or an `allprop` one for resources without dead properties, writes for each resource:
 * compiled once per request, not once per resource (a 10,000-entry PROPFIND spent most of its time on the tags;
 * docs/BENCHMARKS.md, WebDAV beside nginx dav-ext).
 */
const compiled = new WeakMap<PropfindRequest, CompiledProp[]>();
function compiledProps(request: PropfindRequest & { type: 'prop' | 'allprop' }): CompiledProp[] {
  let props = compiled.get(request);
  if (!props) {
    props = compileAll(request.type === 'prop' ? request.props : [...ALLPROP_LIVE, ...request.include]);
    compiled.set(request, props);
  }
  return props;
}
const PROPSTAT_OPEN = '<d:propstat><d:prop>';
const propstatClose = (status: number) => `</d:prop><d:status>${statusLine(status)}</d:status></d:propstat>`;
const PROPSTAT_200 = propstatClose(200);
const PROPSTAT_404 = propstatClose(404);

/** One `<d:response>` of a multistatus for `node`. */
export function propResponse(href: string, node: Node, request: PropfindRequest, extras: NodeExtras): string {
  const dead = extras.dead ?? new Map<string, string>();
  let found = '';
  let missing = '';
  if (request.type === 'propname') {
    for (const prop of LIVE_NAMES) if (live(node, prop, extras) !== undefined) found += element(prop);
    for (const k of dead.keys()) {
      const [ns = '', name = ''] = k.split(' ');
      found += element({ ns, name });
    }
  } else {
    // allprop of a resource with dead properties: they come between the live ones and those asked to include.
    const props =
      request.type === 'prop' || dead.size === 0
        ? compiledProps(request)
        : compileAll([
            ...ALLPROP_LIVE,
            ...[...dead.keys()].map((k) => ({ ns: k.split(' ')[0] ?? '', name: k.split(' ')[1] ?? '' })),
            ...request.include,
          ]);
    for (const { prop, empty, open, close } of props) {
      const content = live(node, prop, extras) ?? (dead.size === 0 ? undefined : dead.get(key(prop)));
      if (content === undefined) missing += empty;
      else found += content === '' ? empty : `${open}${content}${close}`;
    }
  }
  return (
    `<d:response><d:href>${escapeXml(href)}</d:href>` +
    (found === '' ? '' : `${PROPSTAT_OPEN}${found}${PROPSTAT_200}`) +
    (missing === '' ? '' : `${PROPSTAT_OPEN}${missing}${PROPSTAT_404}`) +
    '</d:response>\n'
  );
}

export const MULTISTATUS_OPEN = `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:oc="${OC_NS}" xmlns:nc="${NC_NS}">\n`;
export const MULTISTATUS_CLOSE = '</d:multistatus>\n';

/** The href of a node under `base`: each segment percent-encoded, collections ending in `/`. */
export const hrefOf = (base: string, node: Node | { path: string[]; kind: 'missing' }): string => {
  const href = `${base}/${node.path.map((s) => encodeURIComponent(s)).join('/')}${node.kind === 'file' || node.kind === 'missing' || node.path.length === 0 ? '' : '/'}`;
  return href.endsWith('//') ? href.slice(0, -1) : href;
};

/**
 * The href of a collection's child from the collection's own href (`hrefOf`, ending in `/`): the same string, without
 * encoding the collection's path again for each of its 10,000 children.
 */
export const childHrefOf = (parentHref: string, child: Node): string =>
  `${parentHref}${encodeURIComponent(child.name)}${child.kind === 'file' ? '' : '/'}`;
