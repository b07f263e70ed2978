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
