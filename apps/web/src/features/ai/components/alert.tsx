import { AlertCircle, Info } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * An inline, announced message (the AI screens' messages, docs/PRODUCT.md#ai-services): an icon and an error or info
 * tone, unlike the kit's plain error text (`components/ui/alert`).
 */
export function Alert({ kind = 'error', children }: { kind?: 'error' | 'info'; children: ReactNode }) {
  const Icon = kind === 'error' ? AlertCircle : Info;
  return (
    <div
      role="alert"
      className={`flex items-start gap-2 rounded-lg border px-4 py-3 text-sm ${
        kind === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-sky-200 bg-sky-50 text-sky-900'
      }`}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div>{children}</div>
    </div>
  );
}

/** The server's own explanation under the screen's message, when it has one worth showing. */
export function ErrorDetail({ error }: { error: unknown }) {
  if (!(error instanceof Error) || !error.message) return null;
  return <p className="mt-1 text-xs text-red-700">{error.message}</p>;
}
