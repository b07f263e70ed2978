import { useEffect, useMemo, useRef } from 'react';

/**
 * An object URL for a blob, revoked when the blob changes or the component
 * unmounts. Revocation waits a tick and is skipped if the same URL is back on
 * screen (StrictMode unmounts and remounts effects once in development).
 */
export function useObjectUrl(blob: Blob | null | undefined): string | undefined {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    shown.current = url;
    return () => {
      shown.current = undefined;
      if (url)
        window.setTimeout(() => {
          if (shown.current !== url) URL.revokeObjectURL(url);
        }, 0);
    };
  }, [url]);
  return url;
}
