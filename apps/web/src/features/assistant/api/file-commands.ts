import {
  SIGN_IN_FOR_FILES_REPLY,
  describeFileAnswer,
  openFileAnswer,
  pickFile,
  searchFilesAnswer,
  searchFilesSpoken,
  type FileCommand,
} from '@atrium/assistant';
import { ENDPOINTS, SEARCH_PAGE_MAX, type SearchResult } from '@atrium/contracts';
import { call, isApiError } from '../../../lib/api-client';
import { locationText, resultTarget, searchPagePath } from '../../../lib/search-links';

/** A link in an answer: a file to open, or the search page. */
export interface ChatLink {
  label: string;
  href: string;
  /** Opens in a new tab (a file shared on its own opens its bytes). */
  external: boolean;
  /** Where it is, e.g. "Personal › Reports". */
  detail?: string;
}

/** The answer to a file command: shown (with links) in the chat, spoken by voice. */
export interface FileAnswer {
  text: string;
  /** What voice says (shorter where the chat shows links). */
  spoken: string;
  links?: ChatLink[];
  /** Opens at once: the one file "open X" meant. */
  navigateTo?: string;
  /** Where voice goes, as it shows no links: the file "open X" meant, or the search page with the results. */
  voiceNavigateTo?: string;
}

const signInLink: ChatLink = { label: 'Sign in', href: '/login', external: false };

/** Results shown in the chat; the search page has the rest. */
export const SHOWN_RESULTS = 5;

const fileLink = (result: SearchResult): ChatLink => ({
  label: result.name,
  ...resultTarget(result),
  detail: locationText(result),
});

/** Files (not folders) the caller may read that match `q`, best first: the server decides what they may read. */
async function searchFiles(q: string, signal?: AbortSignal) {
  const page = await call(ENDPOINTS.search.search, { query: { q, limit: SEARCH_PAGE_MAX } }, { signal });
  return { files: page.items.filter((item) => item.kind === 'file'), more: page.nextCursor !== null };
}

/** The file a name means, among the files whose name matched a search for it. */
async function findByName(name: string, signal?: AbortSignal) {
  const { files } = await searchFiles(name, signal);
  return pickFile(
    name,
    files.filter((file) => file.matchedIn === 'name'),
  );
}

const choose = (text: string, choices: readonly SearchResult[]): FileAnswer => ({
  text,
  spoken: text,
  links: choices.map(fileLink),
});

async function answer(command: FileCommand, signal?: AbortSignal): Promise<FileAnswer> {
  if (command.kind === 'search') {
    const { files, more } = await searchFiles(command.query, signal);
    const all: ChatLink = { label: 'See all results', href: searchPagePath(command.query), external: false };
    return {
      text: searchFilesAnswer(command.query, files, more),
      spoken: searchFilesSpoken(command.query, files, more),
      links: [...files.slice(0, SHOWN_RESULTS).map(fileLink), all],
      ...(files.length > 0 ? { voiceNavigateTo: all.href } : {}),
    };
  }
  const picked = await findByName(command.name, signal);
  const text = openFileAnswer(command.name, picked);
  if (!picked.match) return choose(text, picked.choices);
  const link = fileLink(picked.match);
  if (command.kind === 'open') {
    return link.external
      ? { text: `“${picked.match.name}” was shared with you on its own: open it below.`, spoken: text, links: [link] }
      : { text, spoken: text, links: [link], navigateTo: link.href, voiceNavigateTo: link.href };
  }
  const insights = await call(ENDPOINTS.analysis.insights, { params: { id: picked.match.id } }, { signal });
  const described = describeFileAnswer(picked.match.name, insights);
  return { text: described, spoken: described, links: [{ ...link, label: `Open ${picked.match.name}` }] };
}

/**
 * Runs a file command as the signed-in user (`GET /api/search`, `GET /api/files/{id}/insights`). Someone who is not
 * signed in (a 401) is asked to sign in; nothing else is said about any file.
 */
export async function runFileCommand(command: FileCommand, signal?: AbortSignal): Promise<FileAnswer> {
  try {
    return await answer(command, signal);
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      return { text: SIGN_IN_FOR_FILES_REPLY, spoken: SIGN_IN_FOR_FILES_REPLY, links: [signInLink] };
    }
    if (isApiError(error) && error.status === 400) return { text: error.message, spoken: error.message };
    const text = 'I could not reach your files just now. Please try again.';
    return { text, spoken: text };
  }
}
