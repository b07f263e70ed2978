/**
 * SSML → plain text for a single-voice engine: keeps the text inside <speak>, honours <sub alias>,
 * turns <break> and paragraph/sentence ends into pauses, drops every other tag, decodes XML entities;
 * `<prosody rate pitch>` cuts it into segments the engine speaks faster, slower, higher or lower.
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

/** The body of a `<speak>` document, prolog and comments removed; throws unless there is one. */
function speakBody(ssml: string): string {
  const s = ssml
    .replace(/<\?[\s\S]*?\?>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<!DOCTYPE[^>]*>/gi, ' ');
  const open = /<speak(\s[^>]*)?>/i.exec(s);
  const close = s.toLowerCase().lastIndexOf('</speak>');
  if (!open || close < open.index) {
    throw new BadInputError('SSML must be a <speak>…</speak> document');
  }
  return s.slice(open.index + open[0].length, close);
}

/** CDATA sections replaced by NUL-delimited placeholders, so no tag rule looks inside them. */
function hideCdata(body: string): { body: string; cdata: string[] } {
  const cdata: string[] = [];
  const hidden = body.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, text: string) => {
    cdata.push(text);
    return `\u0000${cdata.length - 1}\u0000`;
  });
  return { body: hidden, cdata };
}

/** A piece of a `<speak>` body (CDATA hidden) → plain text. */
function bodyToText(body: string, cdata: string[]): string {
  // <sub alias="World Wide Web">WWW</sub> → the alias.
  let s = body.replace(/<sub\b([^>]*)>([\s\S]*?)<\/sub\s*>/gi, (_m, attrs: string, inner: string) => {
    const alias = attr(` ${attrs}`, 'alias');
    return alias !== undefined ? ` ${alias} ` : inner;
  });
  s = s.replace(/<break\b[^>]*\/?>/gi, ' , ');
  s = s.replace(/<\/(p|s|paragraph|sentence)\s*>/gi, ' . ');
  s = s.replace(/<[^>]*>/g, ' ');
  if (/[<>]/.test(s)) throw new BadInputError('SSML is not well-formed (stray < or >)');
  s = decodeXmlEntities(s);
  // eslint-disable-next-line no-control-regex -- NUL marks the CDATA placeholders inserted by hideCdata
  s = s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => cdata[Number(i)] ?? '');
  return s
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.])/g, '$1')
    .replace(/^[\s,.]+/, '')
    .trim();
}

export function ssmlToText(ssml: string): string {
  const { body, cdata } = hideCdata(speakBody(ssml));
  return bodyToText(body, cdata);
}

/** A stretch of speech with one rate (1 = normal speed) and pitch shift (in cents, 0 = the voice's own). */
export interface SpeechSegment {
  text: string;
  rate: number;
  pitchCents: number;
}

// Azure's named values (docs/PRODUCT.md#local-voices): rates as multipliers, pitches as relative changes.
const RATES: Record<string, number> = { 'x-slow': 0.5, slow: 0.64, medium: 1, fast: 1.55, 'x-fast': 2, default: 1 };
const PITCHES: Record<string, number> = { 'x-low': -50, low: -25, medium: 0, high: 25, 'x-high': 50, default: 0 };
/** The local voices speak at about this fundamental frequency: relative and absolute Hz values are taken from it. */
const VOICE_BASE_HZ = 180;
const MAX_PITCH_CENTS = 1200;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const percentToCents = (percent: number) => 1200 * Math.log2(Math.max(0.05, 1 + percent / 100));

/** `rate` of `<prosody>`: a name, a multiplier ("1.5") or a relative percentage ("+20%", "-30%"). */
export function prosodyRate(value: string | undefined): number {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 1;
  if (v in RATES) return RATES[v] ?? 1;
  const percent = /^([+-]?\d+(?:\.\d+)?)%$/.exec(v);
  if (percent) {
    const n = Number(percent[1]);
    // "+20%" and "-20%" change the rate; an unsigned "80%" is the rate itself.
    return /^[+-]/.test(v) ? 1 + n / 100 : n / 100;
  }
  const multiplier = /^\+?\d+(?:\.\d+)?$/.exec(v);
  if (multiplier) return Number(v);
  throw new BadInputError(`SSML: prosody rate "${value}" is not a rate (x-slow … x-fast, 1.5, +20%)`);
}

/** `pitch` of `<prosody>` in cents: a name, "+10%", "-2st", "+50Hz" or an absolute "220Hz". */
export function prosodyPitchCents(value: string | undefined): number {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 0;
  if (v in PITCHES) return percentToCents(PITCHES[v] ?? 0);
  const m = /^([+-]?)(\d+(?:\.\d+)?)(%|st|hz)$/.exec(v);
  if (!m) throw new BadInputError(`SSML: prosody pitch "${value}" is not a pitch (x-low … x-high, +10%, -2st, +50Hz)`);
  const sign = m[1] === '-' ? -1 : 1;
  const n = Number(m[2]);
  if (m[3] === 'st') return sign * n * 100;
  if (m[3] === '%') return percentToCents(sign * n);
  const hz = m[1] === '' ? n : VOICE_BASE_HZ + sign * n;
  return 1200 * Math.log2(Math.max(1, hz) / VOICE_BASE_HZ);
}

/**
 * SSML → the stretches of text to speak, each with the rate and pitch of the `<prosody>` elements around it
 * (nested ones multiply their rates and add their pitches). Rates are held to 0.5–2, pitches to ±1 octave.
 */
export function ssmlToSegments(ssml: string): SpeechSegment[] {
  const { body, cdata } = hideCdata(speakBody(ssml));
  const segments: SpeechSegment[] = [];
  const stack: { rate: number; pitchCents: number }[] = [{ rate: 1, pitchCents: 0 }];
  const tag = /<(\/?)prosody\b([^>]*?)(\/?)>/gi;
  let from = 0;
  const flush = (to: number) => {
    const text = bodyToText(body.slice(from, to), cdata);
    const top = stack[stack.length - 1] ?? { rate: 1, pitchCents: 0 };
    const rate = clamp(top.rate, 0.5, 2);
    const pitchCents = Math.round(clamp(top.pitchCents, -MAX_PITCH_CENTS, MAX_PITCH_CENTS));
    if (!/[A-Za-z0-9]/.test(text)) return;
    const last = segments[segments.length - 1];
    if (last && last.rate === rate && last.pitchCents === pitchCents) last.text = `${last.text} ${text}`;
    else segments.push({ text, rate, pitchCents });
  };
  for (let match = tag.exec(body); match; match = tag.exec(body)) {
    flush(match.index);
    from = match.index + match[0].length;
    const top = stack[stack.length - 1] ?? { rate: 1, pitchCents: 0 };
    if (match[1] === '/') {
      if (stack.length > 1) stack.pop();
    } else if (match[3] !== '/') {
      const attrs = ` ${match[2] ?? ''}`;
      stack.push({
        rate: top.rate * prosodyRate(attr(attrs, 'rate')),
        pitchCents: top.pitchCents + prosodyPitchCents(attr(attrs, 'pitch')),
      });
    }
  }
  flush(body.length);
  return segments;
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
