import type { FolderNode, FileNode, Node, VirtualNode } from './dav.tree';
import { DAV_NS, element, escapeXml, statusLine, type PropName, type PropfindRequest } from './dav.xml';

export const OC_NS = 'http://owncloud.org/ns';
export const NC_NS = 'http://nextcloud.org/ns';

/** Extra facts a property may need that the listing does not carry (asked for one resource at a time). */
export interface NodeExtras {
  sha256?: string | undefined;
  quota?: { used: number; available: number } | undefined;
  /** Dead properties (PROPPATCH): `ns name` → value XML. */
  dead?: ReadonlyMap<string, string> | undefined;
  lockdiscovery?: string | undefined;
}

/** A file's entity tag: changes with every new content (a new upload date), the same in PROPFIND and GET. */
export const etagOf = (node: FileNode | FolderNode): string => `"${etagInner(node)}"`;
const etagInner = (node: FileNode | FolderNode): string =>
  node.kind === 'file'
    ? `${idPart(node.id)}${base36(epochMs(node.uploadDate))}${base36(node.size)}`
    : `${idPart(node.id)}${base36(epochMs(node.updatedAt))}`;
/** `getetag`'s content: `etagOf` escaped, its quotes written as entities without a pass over the text. */
const etagXml = (node: FileNode | FolderNode): string => {
  const inner = etagInner(node);
  return NEEDS_ESCAPE.test(inner) ? escapeXml(`"${inner}"`) : `&quot;${inner}&quot;`;
};
const NEEDS_ESCAPE = /[<>&"']/;

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

/** A date as the app stores it (`Date.prototype.toISOString`): then it is its own ISO form and easy to take apart. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WEEKDAYS = ['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;
/** The two-digit number at `at` of a canonical date. */
const twoDigits = (date: string, at: number) => (date.charCodeAt(at) - 48) * 10 + date.charCodeAt(at + 1) - 48;

/**
 * `creationdate`: an ISO-8601 date. A 10,000-entry listing parsed and formatted 20,000 dates; the stored ones are
 * already in the form asked for.
 */
export const isoDate = (date: string): string => (CANONICAL_ISO.test(date) ? date : new Date(date).toISOString());

/**
 * The last day `httpDate` wrote and its `Www, DD Mon YYYY ` (a folder's files mostly share their days: the weekday
 * is worked out once per day, not once per entry).
 */
let httpDay = '';
let httpDayPrefix = '';

/** `getlastmodified`: the HTTP date (`Date.prototype.toUTCString`), taken apart from the stored ISO form. */
export function httpDate(date: string): string {
  if (!CANONICAL_ISO.test(date)) return new Date(date).toUTCString();
  if (httpDay === '' || !date.startsWith(httpDay)) {
    const year = Number(date.slice(0, 4));
    const month = Number(date.slice(5, 7));
    const day = Number(date.slice(8, 10));
    const weekday = WEEKDAYS[((Math.floor(Date.UTC(year, month - 1, day) / DAY_MS) % 7) + 7) % 7];
    httpDay = date.slice(0, 10);
    httpDayPrefix = `${weekday}, ${date.slice(8, 10)} ${MONTHS[month - 1]} ${date.slice(0, 4)} `;
  }
  return `${httpDayPrefix}${date.slice(11, 19)} GMT`;
}

/** The last day `epochMs` parsed, and its midnight as `Date.parse` answers it (NaN: not a date). */
let msDay = '';
let msDayStart = Number.NaN;

/**
 * `Date.parse(date)` (the entity tags' time), from the day's midnight parsed once per day: within a day the time of
 * day adds up as `Date.parse` adds it (hours 0–23, minutes and seconds 0–59; anything else is parsed as it is).
 */
export function epochMs(date: string): number {
  if (!CANONICAL_ISO.test(date)) return Date.parse(date);
  const hours = twoDigits(date, 11);
  const minutes = twoDigits(date, 14);
  const seconds = twoDigits(date, 17);
  if (hours > 23 || minutes > 59 || seconds > 59) return Date.parse(date);
  if (msDay === '' || !date.startsWith(msDay)) {
    msDay = date.slice(0, 10);
    msDayStart = Date.parse(`${msDay}T00:00:00.000Z`);
  }
  return (
    msDayStart + ((hours * 60 + minutes) * 60 + seconds) * 1000 + (date.charCodeAt(20) - 48) * 100 + twoDigits(date, 21)
  );
}

const DIGITS36 = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Every two-digit base-36 number, `00` to `zz`: a 13-digit time takes 5 steps instead of 9. */
const PAIRS36 = Array.from(
  { length: 36 * 36 },
  (_, i) => `${DIGITS36.charAt(Math.floor(i / 36))}${DIGITS36.charAt(i % 36)}`,
);
/** `n.toString(36)`, which V8 answers slowly (its any-radix float path) for the integers of entity tags. */
export function base36(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return n.toString(36);
  let text = '';
  let rest = n;
  while (rest >= 36 * 36) {
    text = `${PAIRS36[rest % (36 * 36)] ?? ''}${text}`;
    rest = Math.floor(rest / (36 * 36));
  }
  return `${rest < 36 ? DIGITS36.charAt(rest) : (PAIRS36[rest] ?? '')}${text}`;
}

/**
 * `id.replaceAll('-', '').slice(0, 16)`, the entity tag's id part: for an id with its first dashes where a UUID has
 * them, three slices.
 */
export function idPart(id: string): string {
  const third = id.indexOf('-', 14);
  return id.indexOf('-') === 8 && id.indexOf('-', 9) === 13 && (third === -1 || third >= 18)
    ? `${id.slice(0, 8)}${id.slice(9, 13)}${id.slice(14, 18)}`
    : id.replaceAll('-', '').slice(0, 16);
}

/**
 * A live property of one kind of node: the same content for every node of the kind (a string), or worked out for each
 * (undefined from the function: this node has none). A property a kind has no entry for is none of its live ones.
 */
type Live<N extends Node> = string | ((node: N, extras: NodeExtras) => string | undefined);
const quotaUsed = (_node: Node, extras: NodeExtras) => (extras.quota ? String(extras.quota.used) : undefined);
const quotaAvailable = (_node: Node, extras: NodeExtras) =>
  extras.quota ? String(Math.max(0, extras.quota.available)) : undefined;
const displayname = (node: Node) => escapeXml(node.name);
const lockdiscovery = (_node: Node, extras: NodeExtras) => extras.lockdiscovery ?? '';
const fileid = (node: FileNode | FolderNode) => escapeXml(node.id);
const ocId = (node: FileNode | FolderNode) => escapeXml(`${node.id}atrium`);
const d = (name: string) => `${DAV_NS} ${name}`;
const oc = (name: string) => `${OC_NS} ${name}`;
const HAS_PREVIEW = `${NC_NS} has-preview`;

const FILE_LIVE = new Map<string, Live<FileNode>>([
  [d('resourcetype'), ''],
  [d('displayname'), displayname],
  [d('getlastmodified'), (node) => httpDate(node.modifiedAt ?? node.uploadDate)],
  [d('creationdate'), (node) => isoDate(node.uploadDate)],
  [d('getetag'), etagXml],
  [d('getcontentlength'), (node) => String(node.size)],
  [d('getcontenttype'), (node) => escapeXml(node.contentType)],
  [d('supportedlock'), SUPPORTED_LOCK],
  [d('lockdiscovery'), lockdiscovery],
  [oc('fileid'), fileid],
  [oc('id'), ocId],
  [oc('permissions'), 'RGDNVW'],
  [oc('size'), (node) => String(node.size)],
  [
    oc('checksums'),
    (_node, extras) => (extras.sha256 ? `<oc:checksum>SHA256:${extras.sha256}</oc:checksum>` : undefined),
  ],
  [HAS_PREVIEW, (node) => (/^image\/(jpeg|png|gif|webp)/.test(node.contentType) ? 'true' : 'false')],
]);
const FOLDER_LIVE = new Map<string, Live<FolderNode>>([
  [d('resourcetype'), '<d:collection/>'],
  [d('displayname'), displayname],
  [d('getlastmodified'), (node) => httpDate(node.updatedAt)],
  [d('creationdate'), (node) => isoDate(node.createdAt)],
  [d('getetag'), etagXml],
  [d('supportedlock'), SUPPORTED_LOCK],
  [d('lockdiscovery'), lockdiscovery],
  [d('quota-used-bytes'), quotaUsed],
  [d('quota-available-bytes'), quotaAvailable],
  [oc('fileid'), fileid],
  [oc('id'), ocId],
  [oc('permissions'), (node) => (node.fixed ? 'RGCK' : 'RGDNVCK')],
  [oc('size'), '0'],
  [HAS_PREVIEW, 'false'],
]);
const VIRTUAL_LIVE = new Map<string, Live<VirtualNode>>([
  [d('resourcetype'), '<d:collection/>'],
  [d('displayname'), displayname],
  [d('quota-used-bytes'), quotaUsed],
  [d('quota-available-bytes'), quotaAvailable],
  [oc('permissions'), (node) => (node.which === 'root' ? 'CK' : '')],
  [HAS_PREVIEW, 'false'],
]);
const LIVE_OF = { file: FILE_LIVE, folder: FOLDER_LIVE, virtual: VIRTUAL_LIVE } as const;

/** The value of a live property of `node`, as XML content (undefined: it has none). */
function live(node: Node, propKey: string, extras: NodeExtras): string | undefined {
  const value = (LIVE_OF[node.kind] as Map<string, Live<Node>>).get(propKey);
  return typeof value === 'function' ? value(node, extras) : value;
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
  key: string;
  empty: string;
  open: string;
  close: string;
}
const compile = (prop: PropName): CompiledProp => {
  const [open = '', close = ''] = element(prop, '\u0000').split('\u0000');
  return { prop, key: key(prop), empty: element(prop), open, close };
};
/** The properties a request names, once each, in its order. */
const compileAll = (props: PropName[]): CompiledProp[] => {
  const seen = new Set<string>();
  return props.filter((prop) => !seen.has(key(prop)) && seen.add(key(prop))).map(compile);
};
const ALLPROP_LIVE = LIVE_NAMES.filter((p) => ALLPROP.has(key(p)));

/**
 * How a request's properties are written for one kind of node without dead properties: runs of properties whose
 * content is the same for every node of the kind, joined into one `found` and one `missing` text, between the
 * properties worked out per node. A 10,000-entry PROPFIND writes each entry from these pieces: no per-property look-up.
 */
type Step =
  | { found: string; missing: string }
  | (CompiledProp & { value: (node: Node, extras: NodeExtras) => string | undefined });
interface Plan {
  compiled: CompiledProp[];
  steps: Record<Node['kind'], Step[]>;
}
function planOf(compiled: CompiledProp[]): Plan {
  const stepsOf = (kind: Node['kind']): Step[] => {
    const steps: Step[] = [];
    let fixed = { found: '', missing: '' };
    for (const prop of compiled) {
      const value = (LIVE_OF[kind] as Map<string, Live<Node>>).get(prop.key);
      if (typeof value === 'function') {
        if (fixed.found !== '' || fixed.missing !== '') steps.push(fixed);
        fixed = { found: '', missing: '' };
        steps.push({ ...prop, value });
      } else if (value === undefined) fixed.missing += prop.empty;
      else fixed.found += value === '' ? prop.empty : `${prop.open}${value}${prop.close}`;
    }
    if (fixed.found !== '' || fixed.missing !== '') steps.push(fixed);
    return steps;
  };
  return { compiled, steps: { file: stepsOf('file'), folder: stepsOf('folder'), virtual: stepsOf('virtual') } };
}

/**
 * What a `prop` request, or an `allprop` one for resources without dead properties, writes for each resource:
 * planned once per request, not once per resource (a 10,000-entry PROPFIND spent most of its time on the tags;
 * docs/BENCHMARKS.md, WebDAV beside nginx dav-ext).
 */
const plans = new WeakMap<PropfindRequest, Plan>();
function planFor(request: PropfindRequest & { type: 'prop' | 'allprop' }): Plan {
  let plan = plans.get(request);
  if (!plan) {
    plan = planOf(compileAll(request.type === 'prop' ? request.props : [...ALLPROP_LIVE, ...request.include]));
    plans.set(request, plan);
  }
  return plan;
}
const PROPSTAT_OPEN = '<d:propstat><d:prop>';
const propstatClose = (status: number) => `</d:prop><d:status>${statusLine(status)}</d:status></d:propstat>`;
const PROPSTAT_200 = propstatClose(200);
const PROPSTAT_404 = propstatClose(404);

/** One `<d:response>` of a multistatus for `node`. */
export function propResponse(href: string, node: Node, request: PropfindRequest, extras: NodeExtras): string {
  const dead = extras.dead;
  let found = '';
  let missing = '';
  if (request.type !== 'propname' && (dead === undefined || dead.size === 0)) {
    for (const step of planFor(request).steps[node.kind]) {
      if ('value' in step) {
        const content = step.value(node, extras);
        if (content === undefined) missing += step.empty;
        else found += content === '' ? step.empty : `${step.open}${content}${step.close}`;
      } else {
        found += step.found;
        missing += step.missing;
      }
    }
  } else if (request.type === 'propname') {
    for (const prop of LIVE_NAMES) if (live(node, key(prop), extras) !== undefined) found += element(prop);
    for (const k of dead?.keys() ?? []) {
      const [ns = '', name = ''] = k.split(' ');
      found += element({ ns, name });
    }
  } else {
    const withDead = dead ?? new Map<string, string>();
    // allprop of a resource with dead properties: they come between the live ones and those asked to include.
    const props =
      request.type === 'prop'
        ? planFor(request).compiled
        : compileAll([
            ...ALLPROP_LIVE,
            ...[...withDead.keys()].map((k) => ({ ns: k.split(' ')[0] ?? '', name: k.split(' ')[1] ?? '' })),
            ...request.include,
          ]);
    for (const { key: propKey, empty, open, close } of props) {
      const content = live(node, propKey, extras) ?? withDead.get(propKey);
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
