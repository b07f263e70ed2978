import { Bell, X } from 'lucide-react';

/**
 * The latest-message banner (shows for 5 s: docs/PRODUCT.md#banners). It floats over the top of the page (below
 * the phone's top bar) instead of taking space in the flow, so nothing under the user's caret moves when it comes or goes.
 */
export function NotificationBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="notification-banner"
      data-notification-banner
      className="fixed inset-x-3 top-[4.25rem] z-40 flex max-h-[25vh] overflow-hidden items-start gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-brand-900 shadow-lg md:inset-x-auto md:left-1/2 md:top-4 md:w-[min(36rem,calc(100vw-2rem))] md:-translate-x-1/2"
    >
      <Bell className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />
      {/* At most three lines: on a phone it never covers a third of the screen (docs/PRODUCT.md#banners). */}
      <p className="line-clamp-3 min-w-0 flex-1 break-words text-sm font-medium">{message}</p>
      <button
        type="button"
        onClick={onDismiss}
        className="rounded p-0.5 text-brand-700 hover:bg-brand-100"
        aria-label="Dismiss banner"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
