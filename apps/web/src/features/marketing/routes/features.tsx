import { Check } from 'lucide-react';
import { usePageMeta } from '../../../lib/use-page-meta';
import { PAGE_META } from '../page-meta';
import { CAPABILITIES } from '../components/capabilities';
import { CallToAction, PageHeader } from '../components/page-header';

export default function FeaturesPage() {
  usePageMeta(PAGE_META['/features']);
  return (
    <>
      <PageHeader eyebrow="Features" title="Team workspaces with AI built in">
        <p>Everything runs on your own server. Sign in once and every tool is in the sidebar.</p>
      </PageHeader>
      <section aria-label="All features" className="px-4 py-16 sm:px-6">
        <ul className="mx-auto grid max-w-6xl gap-6 md:grid-cols-2">
          {CAPABILITIES.map(({ icon: Icon, title, summary, points }) => (
            <li key={title} className="flex gap-5 rounded-2xl border border-slate-200 p-6 shadow-sm">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-600 text-white">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <div>
                <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
                <p className="mt-1 text-slate-600">{summary}</p>
                <ul className="mt-3 space-y-1.5 text-sm text-slate-700">
                  {points.map((point) => (
                    <li key={point} className="flex items-start gap-2">
                      <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
                      {point}
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <CallToAction
        title="Try every feature free"
        text="A self-hosted install includes every feature. Your first sign-in with your identity provider creates your account."
        action="Get Started"
        to="/login"
      />
    </>
  );
}
