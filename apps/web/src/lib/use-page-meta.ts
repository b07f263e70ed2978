import { useEffect } from 'react';
import { useDocumentTitle } from './use-document-title';

/** Sets the page title ("Title · Atrium") and its meta description. */
export function usePageMeta({ title, description }: { title: string; description: string }) {
  useDocumentTitle(title);
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [description]);
}

/**
 * For pages that must stay out of search engines and must not leak their address (public link pages):
 * `<meta name="robots" content="noindex">` and `<meta name="referrer" content="no-referrer">` while mounted.
 */
export function useNoindexPage() {
  useEffect(() => {
    // The server already writes these into the page it serves for /s/{token}: add only what is missing.
    const added = (
      [
        ['robots', 'noindex, nofollow'],
        ['referrer', 'no-referrer'],
      ] as const
    ).flatMap(([name, content]) => {
      if (document.querySelector(`meta[name="${name}"][content="${content}"]`)) return [];
      const meta = document.createElement('meta');
      meta.name = name;
      meta.content = content;
      document.head.append(meta);
      return [meta];
    });
    return () => added.forEach((meta) => meta.remove());
  }, []);
}
