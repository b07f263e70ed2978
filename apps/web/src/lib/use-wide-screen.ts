import { useSyncExternalStore } from 'react';

/** Tailwind's `sm` breakpoint: below it, file lists and the file browser show cards instead of a table. */
const QUERY = '(min-width: 640px)';

const subscribe = (onChange: () => void) => {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
};
const isWide = () => typeof window.matchMedia !== 'function' || window.matchMedia(QUERY).matches;

/** Whether the viewport is at least 640 px wide (true where `matchMedia` is missing). */
export const useWideScreen = (): boolean => useSyncExternalStore(subscribe, isWide, () => true);
