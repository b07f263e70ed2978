/**
 * The assistant's file commands (docs/PRODUCT.md#assistant-file-commands): "search files for …", "open <file name>",
 * "what is in <file name>". Parsing and wording only, like the rest of this package: the web chat and voice run the
 * command against the API as the signed-in user (the server decides what they may read) and answer with these
 * sentences.
 */

/** What a file command asks for: a search text, or a file's name. */
export type FileCommand =
  { kind: 'search'; query: string } | { kind: 'open'; name: string } | { kind: 'describe'; name: string };

export interface ParseFileOptions {
  /**
   * "open <anything>" that names no page opens a file of that name. Only for signed-in chat: without it, "open the
   * door" stays a command the assistant does not understand.
   */
  anyOpen?: boolean;
}

/** The reply to a file command from someone who is not signed in: nothing about any file is looked up. */
export const SIGN_IN_FOR_FILES_REPLY = 'Please sign in first: then I can search, open and describe your files.';

/** Longest search text or file name taken from a command (the search API takes 200 characters). */
export const FILE_COMMAND_MAX = 200;

const QUOTE = `"'“”‘’«»\``;
const QUOTES_AROUND = new RegExp(`^[${QUOTE}\\s]+|[${QUOTE}\\s]+$`, 'g');
const STARTS_QUOTED = new RegExp(`^[${QUOTE}]`);

/** Spaces collapsed, typographic apostrophes straightened, trailing sentence punctuation dropped. */
const tidy = (input: string) =>
  input
    .normalize('NFC')
    .replace(/[’‘]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/: /g, ' ')
    .trim()
    .replace(/[\s?!.,;:]+$/, '');

const POLITE_START =
  /^(?:(?:please|hey assistant|hey atrium|assistant|atrium|ok|okay|now|can you|could you|would you|will you|i want you to|i would like you to|id like you to|i'd like you to)[\s,]+)+/i;
const POLITE_END = /(?:[\s,]+(?:please|for me|thanks|thank you))+$/i;

/** A search text or file name as spoken or typed: no surrounding quotes, "report dot pdf" → "report.pdf". */
function cleanName(raw: string, { article }: { article: boolean }): string {
  let name = tidy(raw).replace(/\s+dot\s+([a-z0-9]{1,8})$/i, '.$1');
  const quoted = STARTS_QUOTED.test(name);
  name = name.replace(QUOTES_AROUND, '').trim();
  if (!quoted && article) name = name.replace(/^(?:the|my|a|an|our) /i, '');
  return name.slice(0, FILE_COMMAND_MAX).trim();
}

const SEARCH_RULES: readonly RegExp[] = [
  // search files for X, search my files for X, look through the documents for X, find files about X
  /^(?:search|look|find|look up|go) (?:through |in |in to |into )?(?:all )?(?:of )?(?:my |the |our |all )?(?:files|file|documents|docs) (?:for|about|with|containing|that contain|that mention|mentioning|matching|named|called|on)? ?(.+)$/i,
  // find me files about X
  /^find me (?:some )?(?:files|documents) (?:about|with|containing|that contain|that mention|mentioning|matching|named|called|on)? ?(.+)$/i,
  // show me my files about X, list files containing X
  /^(?:show|show me|list|give me|get me|get) (?:all )?(?:my |the |our |all )?(?:files|documents) (?:about|with|containing|that contain|that mention|mentioning|matching|named|called|on) (.+)$/i,
  // which files mention X
  /^(?:which|what) (?:files|documents) (?:mention|contain|talk about|are about|have|say|match) (.+)$/i,
  // search for X, look for X, search X, find X
  /^(?:search for|look for|search|find) (.+)$/i,
];

/** What is left of "search for", "find files": no search text. */
const NOT_A_QUERY = /^(?:for|about|files?|documents?|docs|my files|the files|me|it|something)$/i;

/** "the word zebra" → "zebra"; "files about zebra" (after "search for") → "zebra". */
const cleanQuery = (raw: string) =>
  cleanName(
    tidy(raw)
      .replace(
        /^(?:(?:my |the |our |all )?(?:files|file|documents) (?:about|with|containing|that contain|that mention|mentioning|matching|named|called|for) )/i,
        '',
      )
      .replace(/^(?:the )?(?:words?|term|text|phrase) /i, ''),
    { article: false },
  );

const DESCRIBE_RULES: readonly RegExp[] = [
  // what is in X, what's inside the file X, tell me what is in X
  /^(?:(?:tell me|show me|say) )?(?:what is|what's|whats|what s|what are|what was) (?:in|inside|on|written in) (?:the file |file )?(.+)$/i,
  // what does X say / contain / show
  /^what does (?:the file |file )?(.+?) (?:say|contain|show|mention|have in it|contain inside)$/i,
  // describe X, summarise X
  /^(?:describe|summarise|summarize|sum up) (?:the file |file |the contents of |what is in )?(.+)$/i,
];

const OPEN_VERB = /^(?:open up|open|show me|show|view|display|bring up|pull up|launch) (.+)$/i;
/** "the file called X", "my file X", "file X": a file, whatever its name. */
const FILE_NOUN =
  /^(?:the |my |a |that )?(?:file|document|doc|photo|picture|image|recording)(?: (?:called|named|titled))? (.+)$/i;
const HAS_EXTENSION = /\.[a-z0-9]{1,8}$/i;

/**
 * The file command in `input`, if it is one. The caller checks page names first ("open file upload" opens the
 * File Upload page; "open file notes" opens the file "notes").
 */
export function parseFileCommand(input: string, options: ParseFileOptions = {}): FileCommand | undefined {
  const text = tidy(input).replace(POLITE_START, '').replace(POLITE_END, '').trim();
  if (!text) return undefined;

  for (const rule of DESCRIBE_RULES) {
    const match = rule.exec(text);
    const name = match?.[1] ? cleanName(match[1], { article: true }) : '';
    if (name) return { kind: 'describe', name };
  }

  for (const rule of SEARCH_RULES) {
    const match = rule.exec(text);
    const query = match?.[1] ? cleanQuery(match[1]) : '';
    if (query && !NOT_A_QUERY.test(query)) return { kind: 'search', query };
  }

  const open = OPEN_VERB.exec(text);
  if (open?.[1]) {
    const target = tidy(open[1]).replace(/\s+dot\s+([a-z0-9]{1,8})$/i, '.$1');
    const noun = FILE_NOUN.exec(target);
    if (noun?.[1]) {
      const name = cleanName(noun[1], { article: false });
      if (name) return { kind: 'open', name };
    }
    if (STARTS_QUOTED.test(target) || HAS_EXTENSION.test(target) || options.anyOpen) {
      const name = cleanName(target, { article: true });
      if (name) return { kind: 'open', name };
    }
  }
  return undefined;
}

/** The chat's first line for a file command, shown while the answer is looked up. */
export function fileCommandProgress(command: FileCommand): string {
  if (command.kind === 'search') return `Searching your files for “${command.query}”…`;
  if (command.kind === 'open') return `Looking for “${command.name}”…`;
  return `Looking into “${command.name}”…`;
}

/** A file found by a search, as the answers need it. */
export interface FoundFile {
  id: string;
  name: string;
}

/** "I found 3 files for “zebra”." / "No files match “zebra”." (`more`: the search has further pages). */
export function searchFilesAnswer(query: string, files: readonly FoundFile[], more = false): string {
  if (files.length === 0) return `No files match “${query}”.`;
  const count = `${more ? 'more than ' : ''}${files.length} ${files.length === 1 && !more ? 'file' : 'files'}`;
  return `I found ${count} for “${query}”.`;
}

/** What voice says after a search: the count, and the best match by name. */
export function searchFilesSpoken(query: string, files: readonly FoundFile[], more = false): string {
  const first = files[0];
  const answer = searchFilesAnswer(query, files, more);
  return first && files.length > 1 ? `${answer} The first is ${first.name}.` : answer;
}

const key = (name: string) => name.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
const stem = (name: string) => key(name).replace(/\.[^.\s]{1,8}$/, '');

/**
 * The file a name means, among files found by searching for it: the one whose whole name is the name, else the one
 * whose name without its extension is, else the only one whose name starts with it (or contains it). `choices` are
 * the candidates when it is not clear which one (at most `limit`).
 */
export function pickFile<T extends FoundFile>(
  name: string,
  files: readonly T[],
  limit = 5,
): { match?: T; choices: T[] } {
  const wanted = key(name);
  const wantedStem = stem(name);
  const tiers = [
    files.filter((file) => key(file.name) === wanted),
    files.filter((file) => stem(file.name) === wantedStem || stem(file.name) === wanted),
    files.filter((file) => key(file.name).startsWith(wanted)),
    files.filter((file) => key(file.name).includes(wanted)),
  ];
  for (const tier of tiers) {
    if (tier.length === 1) return { match: tier[0], choices: [] };
    if (tier.length > 1) return { choices: tier.slice(0, limit) };
  }
  return { choices: files.slice(0, limit) };
}

/** The answer to "open X". */
export function openFileAnswer(name: string, picked: { match?: FoundFile; choices: readonly FoundFile[] }): string {
  if (picked.match) return `Opening “${picked.match.name}”.`;
  if (picked.choices.length > 0) {
    return `I found ${picked.choices.length} files that could be “${name}”. Which one do you mean?`;
  }
  return `I could not find a file named “${name}”.`;
}

/** What analysis found in a file, as the answers need it (the fields of `GET /api/files/{id}/insights`). */
export interface InsightsLike {
  status: 'pending' | 'running' | 'done' | 'failed' | 'unsupported';
  progress?: number;
  text?: string;
  transcript?: { text: string };
  caption?: string;
  tags?: readonly string[];
  error?: string;
}

/** The first `count` words of `text`, with "…" when there are more. */
export function firstWords(text: string, count = 25): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : words.join(' ');
}

/** A sentence or two about what is in a file: its caption and tags, its text, or its transcript. */
export function describeFileAnswer(name: string, insights: InsightsLike): string {
  const file = `“${name}”`;
  if (insights.status === 'pending' || insights.status === 'running') {
    const progress =
      insights.status === 'running' && insights.progress !== undefined
        ? ` (${Math.round(insights.progress * 100)}% done)`
        : '';
    return `${file} is still being analysed${progress}. Ask me again in a moment.`;
  }
  if (insights.status === 'failed') return `The analysis of ${file} failed, so I cannot tell what is in it.`;
  if (insights.status === 'unsupported') {
    return `I cannot tell what is in ${file}${insights.error ? `: ${insights.error.replace(/\.$/, '')}` : ''}.`;
  }
  const parts: string[] = [];
  const caption = insights.caption?.trim();
  if (caption) parts.push(`${file} shows ${caption.replace(/\.$/, '')}.`);
  const tags = (insights.tags ?? []).slice(0, 6);
  if (tags.length > 0) parts.push(`Tags: ${tags.join(', ')}.`);
  const text = insights.text?.trim();
  if (text) parts.push(`${parts.length > 0 ? 'Its text reads' : `${file} reads`}: “${firstWords(text)}”`);
  const transcript = insights.transcript?.text.trim();
  if (transcript) parts.push(`${parts.length > 0 ? 'It says' : `${file} says`}: “${firstWords(transcript)}”`);
  if (parts.length === 0) return `I found no text, speech or objects in ${file}.`;
  return parts.join(' ');
}
