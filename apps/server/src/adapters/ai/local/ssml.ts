/**
 * SSML → plain text for a single-voice engine: keeps the text inside <speak>, honours <sub alias>,
 * turns <break> and paragraph/sentence ends into pauses, drops every other tag, decodes XML entities.
 */
import { BadInputError } from './errors.js';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return safeCodePoint(parseInt(body.slice(2), 16), whole);
    if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10), whole);
    return NAMED[body] ?? whole;
  });
}

function safeCodePoint(cp: number, fallback: string): string {
  return Number.isInteger(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : fallback;
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? (m[2] ?? m[3]) : undefined;
}

export function ssmlToText(ssml: string): string {
  let s = ssml
    .replace(/<\?[\s\S]*?\?>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<!DOCTYPE[^>]*>/gi, ' ');
  const open = /<speak(\s[^>]*)?>/i.exec(s);
  const close = s.toLowerCase().lastIndexOf('</speak>');
  if (!open || close < open.index) {
    throw new BadInputError('SSML must be a <speak>…</speak> document');
  }
  s = s.slice(open.index + open[0].length, close);
  // CDATA is literal text.
  const cdata: string[] = [];
  s = s.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, body: string) => {
    cdata.push(body);
    return `\u0000${cdata.length - 1}\u0000`;
  });
  // <sub alias="World Wide Web">WWW</sub> → the alias.
  s = s.replace(/<sub\b([^>]*)>([\s\S]*?)<\/sub\s*>/gi, (_m, attrs: string, inner: string) => {
    const alias = attr(` ${attrs}`, 'alias');
    return alias !== undefined ? ` ${alias} ` : inner;
  });
  s = s.replace(/<break\b[^>]*\/?>/gi, ' , ');
  s = s.replace(/<\/(p|s|paragraph|sentence)\s*>/gi, ' . ');
  s = s.replace(/<[^>]*>/g, ' ');
  if (/[<>]/.test(s)) throw new BadInputError('SSML is not well-formed (stray < or >)');
  s = decodeXmlEntities(s);
  // eslint-disable-next-line no-control-regex -- NUL marks the CDATA placeholders inserted above
  s = s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => cdata[Number(i)] ?? '');
  return s
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.])/g, '$1')
    .replace(/^[\s,.]+/, '')
    .trim();
}

/**
 * flite reads 8-bit text: fold accents (é → e), typographic quotes and dashes to ASCII, drop the rest.
 */
export function toFliteText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, ' - ')
    .replace(/\u2026/g, '...')
    .replace(/[^\x20-\x7E\n\t]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
