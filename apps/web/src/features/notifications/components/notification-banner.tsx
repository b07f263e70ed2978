import { Bell, X } from 'lucide-react';

/** The latest-message banner (shows for 5 s: docs/PRODUCT.md#banners). */
export function NotificationBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="notification-banner"
      data-notification-banner
      className="mx-4 mt-4 flex items-start gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-brand-900 shadow-sm sm:mx-6"
    >
      <Bell className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />
      <p className="min-w-0 flex-1 break-words text-sm font-medium">{message}</p>
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
