import { Star } from 'lucide-react';
import { usePageMeta } from '../../../lib/use-page-meta';
import { PAGE_META } from '../page-meta';
import { CallToAction, PageHeader } from '../components/page-header';

export const REVIEWS = [
  {
    quote:
      'We moved our meeting transcripts off three different services. Atrium does it on our own box and the team found everything on day one.',
    name: 'Priya Raman',
    role: 'Operations lead, Northwind Clinics',
    initials: 'PR',
    colour: 'bg-sky-700',
  },
  {
    quote:
      'Face detection and image analysis used to mean sending photos to a vendor. Now they never leave our network, and it is faster.',
    name: 'Marcus Lee',
    role: 'CTO, Brightline Studio',
    initials: 'ML',
    colour: 'bg-pink-700',
  },
  {
    quote:
      'The push messages and the voice assistant sold it for our warehouse staff: “open files” and they are there, hands-free.',
    name: 'Sofia Alvarez',
    role: 'IT manager, Harbor Logistics',
    initials: 'SA',
    colour: 'bg-emerald-700',
  },
] as const;

export default function TestimonialsPage() {
  usePageMeta(PAGE_META['/testimonials']);
  return (
    <>
      <PageHeader eyebrow="Reviews" title="Teams that run on Atrium">
        <p>Three of the teams that moved their files and AI work onto their own servers.</p>
      </PageHeader>
      <section aria-label="Customer reviews" className="px-4 py-16 sm:px-6">
        <ul className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-3">
          {REVIEWS.map((review) => (
            <li key={review.name}>
              <figure className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <p className="flex gap-0.5 text-amber-500" role="img" aria-label="Rated 5 out of 5">
                  {[0, 1, 2, 3, 4].map((star) => (
                    <Star key={star} className="size-5 fill-current" aria-hidden="true" />
                  ))}
                </p>
                <blockquote className="mt-4 flex-1 text-slate-700">
                  <p>“{review.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <span
                    className={`flex size-11 items-center justify-center rounded-full font-semibold text-white ${review.colour}`}
                    aria-hidden="true"
                  >
                    {review.initials}
                  </span>
                  <span>
                    <span className="block font-semibold text-slate-900">{review.name}</span>
                    <span className="block text-sm text-slate-600">{review.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>
      <CallToAction
        title="Join them"
        text="Start on the Free plan and bring your team over when you are ready."
        action="Get Started"
        to="/login"
      />
    </>
  );
}
