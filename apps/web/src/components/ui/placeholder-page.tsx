import { useDocumentTitle } from '../../lib/use-document-title';

/** A page whose feature is not built yet: it names itself so every route resolves visibly. */
export function PlaceholderPage({ title, description }: { title: string; description?: string }) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">{description ?? 'This page is on its way.'}</p>
    </section>
  );
}
