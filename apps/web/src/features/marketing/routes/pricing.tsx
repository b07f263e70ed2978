import { Check, Clock } from 'lucide-react';
import { Link } from 'react-router';
import { usePageMeta } from '../../../lib/use-page-meta';
import { PAGE_META } from '../page-meta';
import { PageHeader } from '../components/page-header';

/**
 * The plans and prices of docs/PRODUCT.md#pricing. `features` are in the product today; `soon` are announced but
 * not built yet, so the page lists them apart, as coming soon. A project is a workspace (members, folders, sharing).
 */
export const PLANS = [
  {
    name: 'Free',
    price: '$0',
    period: '/mo',
    description: 'Your own Atrium server, with every feature.',
    features: [
      'Basic AI: every AI service, on your server',
      'Files, notifications and the assistant',
      'Up to 3 projects',
      'Community support',
    ],
    soon: [],
    action: 'Sign up free',
    to: '/login',
    note: 'Your first sign-in with your identity provider creates your account.',
    highlighted: false,
  },
  {
    name: 'Pro',
    price: '$19',
    period: '/mo',
    description: 'For teams that rely on Atrium every day and want answers fast.',
    features: ['Everything in Free', 'Unlimited projects', 'Priority support'],
    soon: ['Advanced analytics'],
    action: 'Ask about Pro',
    to: '/contact',
    note: 'Leave a message: the team sets up Pro support with you.',
    highlighted: true,
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    period: '',
    description: 'For organisations with custom needs, volumes and agreements.',
    features: ['Everything in Pro', 'Custom deployment help', 'Custom terms'],
    soon: [],
    action: 'Contact us',
    to: '/contact',
    note: '',
    highlighted: false,
  },
] as const;

export default function PricingPage() {
  usePageMeta(PAGE_META['/pricing']);
  return (
    <>
      <PageHeader eyebrow="Pricing" title="Simple plans that grow with your team">
        <p>
          Every plan is Atrium on your own server, with every feature. Paid plans add support for more projects and
          people.
        </p>
      </PageHeader>
      <section aria-label="Plans" className="px-4 py-16 sm:px-6">
        <ul className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-3">
          {PLANS.map((plan) => (
            <li
              key={plan.name}
              aria-labelledby={`plan-${plan.name}`}
              data-testid={`plan-${plan.name.toLowerCase()}`}
              className={`relative flex flex-col rounded-3xl p-8 ${
                plan.highlighted
                  ? 'bg-brand-700 text-white shadow-2xl ring-2 ring-brand-600'
                  : 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200'
              }`}
            >
              {plan.highlighted && (
                <p className="absolute -top-3 left-8 rounded-full bg-amber-300 px-3 py-0.5 text-xs font-semibold text-slate-900">
                  Most popular
                </p>
              )}
              <h2 id={`plan-${plan.name}`} className="text-xl font-semibold">
                {plan.name}
              </h2>
              <p className={`mt-2 text-sm ${plan.highlighted ? 'text-brand-100' : 'text-slate-600'}`}>
                {plan.description}
              </p>
              <p className="mt-6 flex items-baseline gap-1">
                <span className="text-4xl font-bold tracking-tight">{plan.price}</span>
                {plan.period && (
                  <span className={plan.highlighted ? 'text-brand-100' : 'text-slate-600'}>{plan.period}</span>
                )}
              </p>
              <ul className="mt-6 flex-1 space-y-3 text-sm">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex items-center gap-2">
                    <Check
                      className={`size-4 shrink-0 ${plan.highlighted ? 'text-white' : 'text-brand-600'}`}
                      aria-hidden="true"
                    />
                    {feature}
                  </li>
                ))}
              </ul>
              {plan.soon.length > 0 && (
                <div className="mt-6">
                  <p
                    className={`text-xs font-semibold uppercase tracking-wide ${plan.highlighted ? 'text-brand-100' : 'text-slate-500'}`}
                  >
                    Coming soon
                  </p>
                  <ul
                    aria-label={`Coming soon to the ${plan.name} plan`}
                    className={`mt-2 space-y-2 text-sm ${plan.highlighted ? 'text-brand-100' : 'text-slate-600'}`}
                  >
                    {plan.soon.map((item) => (
                      <li key={item} className="flex items-center gap-2">
                        <Clock className="size-4 shrink-0" aria-hidden="true" />
                        {item}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <Link
                to={plan.to}
                className={`mt-8 rounded-lg px-4 py-2.5 text-center font-semibold ${
                  plan.highlighted
                    ? 'bg-white text-brand-700 hover:bg-brand-50 focus-visible:outline-white'
                    : 'bg-brand-600 text-white hover:bg-brand-700'
                }`}
              >
                {plan.action}
                <span className="sr-only"> ({plan.name} plan)</span>
              </Link>
              {plan.note && (
                <p className={`mt-3 text-center text-xs ${plan.highlighted ? 'text-brand-100' : 'text-slate-600'}`}>
                  {plan.note}
                </p>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="faq-title" className="bg-slate-50 px-4 py-16 sm:px-6">
        <div className="mx-auto max-w-3xl">
          <h2 id="faq-title" className="text-2xl font-bold tracking-tight text-slate-900">
            Questions
          </h2>
          <dl className="mt-8 space-y-6">
            <div>
              <dt className="font-semibold text-slate-900">What does a self-hosted install include?</dt>
              <dd className="mt-1 text-slate-600">
                Everything: file storage, speech to text, text to speech, face detection, image analysis, push
                notifications and the chat and voice assistant. No feature is kept for a paid plan; the only limits are
                the ones your administrator sets, such as the largest upload and the storage per person.
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">How do I sign up?</dt>
              <dd className="mt-1 text-slate-600">
                Choose Sign up free, then continue with your organisation’s identity provider: your first sign-in
                creates your Atrium account. There is no separate registration form.
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">Do I need a cloud account?</dt>
              <dd className="mt-1 text-slate-600">No. Every plan runs on your own server, AI engines included.</dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">Can I change plans later?</dt>
              <dd className="mt-1 text-slate-600">
                Yes. Plans are about support, so changing one changes nothing on your server: your data stays where it
                is.
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">What counts as a project?</dt>
              <dd className="mt-1 text-slate-600">
                A workspace with its own members, folders, files and notifications, shared with people or by link. Your
                own server does not count them: the plan figures say how many projects support covers.
              </dd>
            </div>
          </dl>
        </div>
      </section>
    </>
  );
}
