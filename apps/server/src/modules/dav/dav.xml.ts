import { SaxesParser, type SaxesTagNS } from 'saxes';
import { AppError } from '../../errors';

/** A property's qualified name. */
export interface PropName {
  ns: string;
  name: string;
}

export type PropfindRequest =
  { type: 'allprop'; include: PropName[] } | { type: 'propname' } | { type: 'prop'; props: PropName[] };

export interface PropPatchOp {
  action: 'set' | 'remove';
  prop: PropName;
  /** The property's value as XML (its children, with their namespaces declared), for a dead property. */
  value: string;
}

export interface LockInfo {
  scope: 'exclusive' | 'shared';
  /** The owner element's content, as XML. */
  owner: string;
}

export const DAV_NS = 'DAV:';
/** The prefixes the multistatus root declares. */
const KNOWN_PREFIXES: Record<string, string> = {
  'DAV:': 'd',
  'http://owncloud.org/ns': 'oc',
  'http://nextcloud.org/ns': 'nc',
};
const BAD_XML = 'The request body is not well-formed XML.';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };
/** Text as XML content or attribute value (most text has nothing to escape: it is returned as it is). */
export const escapeXml = (text: string): string =>
  /[<>&"']/.test(text) ? text.replace(/[<>&"']/g, (c) => ENTITIES[c] ?? c) : text;

interface Element {
  ns: string;
  name: string;
  children: Element[];
  /** The element's content re-serialised (children and text), namespaces declared on each child element. */
  inner: string;
  text: string;
}

/** Parses a (small, bounded) XML body into a namespace-resolved tree; malformed → 400. */
export function parseXml(body: string): Element {
  const parser = new SaxesParser({ xmlns: true });
  const stack: { el: Element; outer: string[] }[] = [];
  let root: Element | undefined;
  let failed: Error | undefined;
  parser.on('error', (error) => {
    failed ??= error;
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const el: Element = { ns: tag.uri, name: tag.local, children: [], inner: '', text: '' };
    const attrs = Object.values(tag.attributes)
      .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
      .map((a) => ` ${a.local}="${escapeXml(a.value)}"`)
      .join('');
    const open = tag.uri ? `<x:${tag.local} xmlns:x="${escapeXml(tag.uri)}"${attrs}>` : `<${tag.local}${attrs}>`;
    stack.at(-1)?.el.children.push(el);
    stack.push({ el, outer: [open] });
  });
  parser.on('text', (text) => {
    const top = stack.at(-1);
    if (!top) return;
    top.el.text += text;
    top.outer.push(escapeXml(text));
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    const done = stack.pop();
    if (!done) return;
    done.el.inner = done.outer.slice(1).join('');
    const close = tag.uri ? `</x:${tag.local}>` : `</${tag.local}>`;
    const parent = stack.at(-1);
    if (parent) parent.outer.push(`${done.outer.join('')}${close}`);
    else root = done.el;
  });
  try {
    parser.write(body).close();
  } catch (error) {
    failed ??= error as Error;
  }
  if (failed || !root) throw new AppError('BAD_REQUEST', BAD_XML, { cause: failed });
  return root;
}

const isDav = (el: Element, name: string) => el.ns === DAV_NS && el.name === name;

/** PROPFIND's body: empty → allprop. */
export function parsePropfind(body: string): PropfindRequest {
  if (body.trim() === '') return { type: 'allprop', include: [] };
  const root = parseXml(body);
  if (!isDav(root, 'propfind')) throw new AppError('BAD_REQUEST', 'The body must be a DAV:propfind element.');
  const names = (el: Element | undefined) => (el?.children ?? []).map((c) => ({ ns: c.ns, name: c.name }));
  if (root.children.some((c) => isDav(c, 'propname'))) return { type: 'propname' };
  const prop = root.children.find((c) => isDav(c, 'prop'));
  if (prop) return { type: 'prop', props: names(prop) };
  if (root.children.some((c) => isDav(c, 'allprop'))) {
    return { type: 'allprop', include: names(root.children.find((c) => isDav(c, 'include'))) };
  }
  throw new AppError('BAD_REQUEST', 'The propfind element names no properties.');
}

/** PROPPATCH's body: the set and remove instructions in document order. */
export function parseProppatch(body: string): PropPatchOp[] {
  const root = parseXml(body);
  if (!isDav(root, 'propertyupdate'))
    throw new AppError('BAD_REQUEST', 'The body must be a DAV:propertyupdate element.');
  const ops: PropPatchOp[] = [];
  for (const instruction of root.children) {
    const action = isDav(instruction, 'set') ? 'set' : isDav(instruction, 'remove') ? 'remove' : undefined;
    if (!action) continue;
    for (const prop of instruction.children.filter((c) => isDav(c, 'prop'))) {
      for (const p of prop.children) ops.push({ action, prop: { ns: p.ns, name: p.name }, value: p.inner });
    }
  }
  if (ops.length === 0) throw new AppError('BAD_REQUEST', 'The propertyupdate element changes no property.');
  return ops;
}

/** LOCK's body (lockinfo); empty: a refresh. */
export function parseLockinfo(body: string): LockInfo | undefined {
  if (body.trim() === '') return undefined;
  const root = parseXml(body);
  if (!isDav(root, 'lockinfo')) throw new AppError('BAD_REQUEST', 'The body must be a DAV:lockinfo element.');
  const scope = root.children.find((c) => isDav(c, 'lockscope'))?.children[0];
  const type = root.children.find((c) => isDav(c, 'locktype'))?.children[0];
  if (!scope || !type || !isDav(type, 'write') || !(isDav(scope, 'exclusive') || isDav(scope, 'shared'))) {
    throw new AppError('BAD_REQUEST', 'The lockinfo element needs a write lock type and a lock scope.');
  }
  const owner = root.children.find((c) => isDav(c, 'owner'));
  return { scope: isDav(scope, 'exclusive') ? 'exclusive' : 'shared', owner: owner?.inner ?? '' };
}

/** `<prefix:name xmlns:prefix="ns">content</…>` for any namespace (an empty one without a prefix). */
export function element(prop: PropName, content?: string): string {
  const known = KNOWN_PREFIXES[prop.ns];
  if (known) {
    const tag = `${known}:${prop.name}`;
    return content === undefined || content === '' ? `<${tag}/>` : `<${tag}>${content}</${tag}>`;
  }
  const open = prop.ns === '' ? `<${prop.name} xmlns=""` : `<P:${prop.name} xmlns:P="${escapeXml(prop.ns)}"`;
  const close = prop.ns === '' ? `</${prop.name}>` : `</P:${prop.name}>`;
  return content === undefined || content === '' ? `${open}/>` : `${open}>${content}${close}`;
}

export const statusLine = (status: number): string =>
  `HTTP/1.1 ${status} ${({ 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 424: 'Failed Dependency', 423: 'Locked' } as Record<number, string>)[status] ?? 'Unknown'}`;

/** The body of a DAV error (RFC 4918 §16): `<d:error><d:condition/></d:error>`. */
export const errorBody = (condition: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:${condition}/></d:error>`;
