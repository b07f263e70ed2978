import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { buttonClass as kitButtonClass } from '../../../components/ui/button';

/** Common frame of the four AI screens. */
export function AiPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      <p className="mt-2 text-slate-600">{intro}</p>
      <div className="mt-6 space-y-5">{children}</div>
    </section>
  );
}

export const buttonClass = kitButtonClass('primary');

export const secondaryButtonClass = kitButtonClass('secondary');

export const fileInputClass =
  'block w-full text-sm text-slate-700 file:mr-4 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600';

/** A small inline progress indicator for work the server is doing. */
export function Working({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center gap-3 text-sm text-slate-600">
      <span
        className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600"
        aria-hidden="true"
      />
      {label}
    </div>
  );
}
