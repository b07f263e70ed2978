import { useCallback, useEffect, useState } from 'react';

/** Banner messages show for 5 s (docs/PRODUCT.md#banners). */
export const BANNER_MS = 5000;

/** A message that clears itself after `ms`; showing a new one restarts the clock. */
export function useTimedMessage(ms = BANNER_MS) {
  const [current, setCurrent] = useState<{ text: string; at: number } | null>(null);
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), ms);
    return () => clearTimeout(timer);
  }, [current, ms]);
  const show = useCallback((text: string) => setCurrent({ text, at: Date.now() }), []);
  const dismiss = useCallback(() => setCurrent(null), []);
  return { message: current?.text ?? null, show, dismiss };
}
