import { useEffect } from 'react';

/** Sets the page title as "Title · Atrium". */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Atrium` : 'Atrium — the AI workspace for teams';
  }, [title]);
}
