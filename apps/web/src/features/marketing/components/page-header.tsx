import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The heading block at the top of each public page. */
export function PageHeader({ eyebrow, title, children }: { eyebrow: string; title: string; children: ReactNode }) {
  return (
    <div className="bg-slate-50">
      <div className="mx-auto max-w-3xl px-4 pb-12 pt-14 text-center sm:px-6 sm:pt-20">
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-700">{eyebrow}</p>
        <h1 className="mt-3 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">{title}</h1>
        <div className="mt-5 text-lg text-pretty text-slate-600">{children}</div>
      </div>
    </div>
  );
}

/** A closing call to action that leads to sign-in. */
export function CallToAction({ title, text, action, to }: { title: string; text: string; action: string; to: string }) {
  return (
    <section aria-labelledby="cta-title" className="px-4 py-16 sm:px-6">
      <div className="mx-auto max-w-5xl rounded-3xl bg-brand-700 px-6 py-12 text-center text-white shadow-xl sm:px-12">
        <h2 id="cta-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {title}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-brand-100">{text}</p>
        <Link
          to={to}
          className="mt-8 inline-block rounded-lg bg-white px-5 py-3 font-semibold text-brand-700 shadow-sm hover:bg-brand-50 focus-visible:outline-white"
        >
          {action}
        </Link>
      </div>
    </section>
  );
}
