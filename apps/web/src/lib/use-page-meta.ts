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
    const added = (
      [
        ['robots', 'noindex, nofollow'],
        ['referrer', 'no-referrer'],
      ] as const
    ).map(([name, content]) => {
      const meta = document.createElement('meta');
      meta.name = name;
      meta.content = content;
      meta.dataset.pageMeta = 'noindex';
      document.head.append(meta);
      return meta;
    });
    return () => added.forEach((meta) => meta.remove());
  }, []);
}
