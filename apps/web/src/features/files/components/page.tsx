import { useId, type ReactNode } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function FilesPageShell({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {intro && <p className="mt-2 text-slate-600">{intro}</p>}
      </header>
      {children}
    </section>
  );
}

export const inputClass =
  'w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';

/** The "File ID" field of the download and delete screens (labelled, required, no autocomplete). */
export function FileIdField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const inputId = useId();
  return (
    <>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        File ID
      </label>
      <input
        id={inputId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
        autoComplete="off"
        className={inputClass}
      />
    </>
  );
}
