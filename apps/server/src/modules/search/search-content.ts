import type { EventSubscriber } from '../../events';

/** What composing a file's searchable content reads from the modules that know it. */
export interface SearchContentSources {
  /** The searchable text analysis found in a file (OCR, transcript, document text, tags, caption); '' without any. */
  analysedText(fileId: string): Promise<string>;
  /** The names of the people in a file. */
  namesIn(fileId: string): Promise<string[]>;
}

export interface SearchContentDeps extends SearchContentSources {
  events: EventSubscriber;
  /** The search index's `setContent`. */
  setContent(fileId: string, text: string | null): Promise<unknown>;
}

/** A file's searchable content: what analysis read in it, then the names of the people in it. */
export const composeContent = (text: string, names: string[]): string => [text, ...names].filter(Boolean).join('\n');

/**
 * THE place where a file's searchable content is composed (docs/PRODUCT.md#search): when analysis finishes a file
 * (`file.analysed`) and when the names of people in files change (`people.changed`), the content is written again
 * from what analysis read and the names of the people in the file.
 */
export function subscribeSearchContent({ events, setContent, analysedText, namesIn }: SearchContentDeps): void {
  const write = async (fileId: string, text: string) =>
    void (await setContent(fileId, composeContent(text, await namesIn(fileId))));
  events.on('file.analysed', 'search content', ({ fileId, text }) => write(fileId, text));
  events.on('people.changed', 'search content', async ({ fileIds }) => {
    for (const fileId of fileIds) await write(fileId, await analysedText(fileId));
  });
}
