import type { ReactNode } from 'react';

// A small Markdown renderer for the file viewer (docs/PRODUCT.md#file-viewer): headings, paragraphs, lists, quotes,
// code blocks, rules, **bold**, *italic*, `code` and links. It builds React elements from the text, never HTML, so
// markup in a file is shown as text and nothing in it runs; links open only http(s) and mailto addresses.

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/** Inline marks of one line: `code`, **bold**, *italic* / _italic_, [text](url). */
export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/g;
  let at = 0;
  let index = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    if (start > at) out.push(text.slice(at, start));
    const token = match[0];
    const key = `${keyPrefix}-${index++}`;
    if (match[1]) out.push(<code key={key}>{token.slice(1, -1)}</code>);
    else if (match[2]) out.push(<strong key={key}>{renderInline(token.slice(2, -2), key)}</strong>);
    else if (match[3]) out.push(<em key={key}>{renderInline(token.slice(1, -1), key)}</em>);
    else {
      const cut = token.indexOf('](');
      const label = token.slice(1, cut);
      const href = token.slice(cut + 2, -1);
      out.push(
        SAFE_HREF.test(href) ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {label}
          </a>
        ) : (
          token
        ),
      );
    }
    at = start + token.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' };

/** The blocks of a Markdown text. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i] ?? ''); i++) code.push(lines[i] ?? '');
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1] ?? '');
      const last = blocks.at(-1);
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(item[2] ?? '');
      else blocks.push({ kind: 'list', ordered, items: [item[2] ?? ''] });
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      const last = blocks.at(-1);
      if (last?.kind === 'quote') last.text += ` ${quote[1] ?? ''}`;
      else blocks.push({ kind: 'quote', text: quote[1] ?? '' });
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

const HEADING_CLASSES = ['text-2xl', 'text-xl', 'text-lg', 'text-base', 'text-base', 'text-sm'];

/** A Markdown text as React elements (never as HTML). */
export function Markdown({ source }: { source: string }) {
  return (
    <div
      data-testid="markdown-preview"
      className="space-y-3 text-sm leading-relaxed text-slate-800 [overflow-wrap:anywhere]"
    >
      {parseBlocks(source).map((block, index) => {
        const key = `b${index}`;
        switch (block.kind) {
          case 'heading': {
            const Tag = `h${Math.min(6, block.level + 1)}` as 'h2';
            return (
              <Tag key={key} className={`font-semibold text-slate-900 ${HEADING_CLASSES[block.level - 1] ?? ''}`}>
                {renderInline(block.text, key)}
              </Tag>
            );
          }
          case 'code':
            return (
              <pre key={key} className="overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100">
                {block.text}
              </pre>
            );
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            return (
              <List key={key} className={`space-y-1 pl-6 ${block.ordered ? 'list-decimal' : 'list-disc'}`}>
                {block.items.map((item, at) => (
                  <li key={at}>{renderInline(item, `${key}-${at}`)}</li>
                ))}
              </List>
            );
          }
          case 'quote':
            return (
              <blockquote key={key} className="border-l-4 border-slate-200 pl-3 text-slate-700">
                {renderInline(block.text, key)}
              </blockquote>
            );
          case 'rule':
            return <hr key={key} className="border-slate-200" />;
          default:
            return <p key={key}>{renderInline(block.text, key)}</p>;
        }
      })}
    </div>
  );
}
