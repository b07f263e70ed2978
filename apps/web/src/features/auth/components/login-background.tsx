import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

const subscribe = (onChange: () => void) => {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
};
const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches;

const POSTER = '/login-poster.jpg';

/** A muted, looping abstract clip behind the login card; a still image for people who prefer less motion. */
export function LoginBackground() {
  const reduced = useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
  const className = 'absolute inset-0 size-full object-cover';
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden bg-brand-900">
      {reduced ? (
        <img src={POSTER} alt="" className={className} data-testid="login-poster" />
      ) : (
        <video
          className={className}
          autoPlay
          muted
          loop
          playsInline
          preload="auto"
          poster={POSTER}
          data-testid="login-video"
        >
          <source src="/login-background.webm" type="video/webm" />
          <source src="/login-background.mp4" type="video/mp4" />
        </video>
      )}
      <div className="absolute inset-0 bg-slate-950/40" />
    </div>
  );
}
