import { Compass, HeartHandshake, Lock } from 'lucide-react';
import { usePageMeta } from '../../../lib/use-page-meta';
import { PAGE_META } from '../page-meta';
import { TeamIllustration } from '../components/illustrations';
import { CallToAction, PageHeader } from '../components/page-header';

const VALUES = [
  {
    icon: Lock,
    title: 'Private by default',
    text: 'AI that runs next to your files, not in someone else’s data centre.',
  },
  {
    icon: Compass,
    title: 'Simple to run',
    text: 'One command to start, sensible defaults, and a clear path to scale out.',
  },
  {
    icon: HeartHandshake,
    title: 'Made for teams',
    text: 'One server for the whole team: everyone’s files, instant notifications and an assistant anyone can use.',
  },
];

export default function AboutPage() {
  usePageMeta(PAGE_META['/about']);
  return (
    <>
      <PageHeader eyebrow="About Atrium" title="AI tools for every team, on infrastructure you control">
        <p>
          Atrium was launched on 28 April 2025 to give teams and businesses the AI services they rely on without handing
          their files and recordings to a third party.
        </p>
      </PageHeader>
      <section aria-labelledby="story-title" className="px-4 py-16 sm:px-6">
        <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-2">
          <div>
            <h2 id="story-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              Our story
            </h2>
            <div className="mt-4 space-y-4 text-slate-600">
              <p>
                Teams kept telling us the same thing: transcription in one tool, file storage in another, image tagging
                in a third, and every one of them wanted a cloud account and a copy of the data.
              </p>
              <p>
                Atrium puts those services in one workspace that runs on a single machine, with a database, file storage
                and AI engines built in. When you grow, it moves to PostgreSQL, S3 and Redis without a rewrite.
              </p>
            </div>
          </div>
          <TeamIllustration className="mx-auto aspect-[10/7] w-full max-w-lg" />
        </div>
      </section>
      <section aria-labelledby="values-title" className="bg-slate-50 px-4 py-16 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <h2 id="values-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            What we care about
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {VALUES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <Icon className="size-7 text-brand-600" aria-hidden="true" />
                <h3 className="mt-3 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <CallToAction
        title="See it for yourself"
        text="Sign in and explore the dashboard: your files, the AI services and the assistant are one click away."
        action="Get Started"
        to="/login"
      />
    </>
  );
}
