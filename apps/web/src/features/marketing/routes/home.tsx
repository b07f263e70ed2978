import { ArrowRight, Check, Server, ShieldCheck, WifiOff } from 'lucide-react';
import { Link } from 'react-router';
import { usePageMeta } from '../../../lib/use-page-meta';
import { PAGE_META } from '../page-meta';
import { CAPABILITIES } from '../components/capabilities';
import { WorkspaceIllustration } from '../components/illustrations';
import { CallToAction } from '../components/page-header';

const PROMISES = [
  {
    icon: Server,
    title: 'Runs on one machine',
    text: 'One command starts everything: database, storage and AI included.',
  },
  {
    icon: WifiOff,
    title: 'No cloud account',
    text: 'Speech, vision and the assistant work offline on your own server.',
  },
  {
    icon: ShieldCheck,
    title: 'Your data stays yours',
    text: 'Files and recordings never leave the machine you run Atrium on.',
  },
];

export default function HomePage() {
  usePageMeta(PAGE_META['/']);
  return (
    <>
      <section aria-labelledby="hero-title" className="overflow-hidden bg-slate-50">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-12 sm:px-6 lg:grid-cols-2 lg:pb-24 lg:pt-20">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-900">
              <span className="size-2 rounded-full bg-brand-600" aria-hidden="true" />
              Self-hosted AI for teams
            </p>
            <h1
              id="hero-title"
              className="mt-5 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-6xl"
            >
              Your team’s files, voice and vision in one workspace
            </h1>
            <p className="mt-5 max-w-xl text-lg text-pretty text-slate-600">
              Atrium brings file storage, speech to text, text to speech, face detection, image analysis, push
              notifications and a chat and voice assistant together, on a server you own.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link
                to="/login"
                className="inline-flex items-center gap-2 rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-brand-700"
              >
                Sign up free <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
              <Link
                to="/features"
                className="rounded-lg bg-white px-5 py-3 font-semibold text-slate-900 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
              >
                Explore features
              </Link>
            </div>
            <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-600">
              {['Every feature included', 'No credit card', 'Open API'].map((item) => (
                <li key={item} className="flex items-center gap-2">
                  <Check className="size-4 text-brand-600" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <WorkspaceIllustration className="mx-auto aspect-[4/3] w-full max-w-xl" />
        </div>
      </section>

      <section aria-labelledby="highlights-title" className="px-4 py-16 sm:px-6 sm:py-24">
        <div className="mx-auto max-w-6xl">
          <div className="max-w-2xl">
            <h2 id="highlights-title" className="text-3xl font-bold tracking-tight text-slate-900">
              Everything your team needs, nothing it has to send away
            </h2>
            <p className="mt-3 text-lg text-slate-600">Eight capabilities, one sign-in, one place to find them.</p>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {CAPABILITIES.map(({ icon: Icon, title, summary }, index) => (
              <li
                key={title}
                className={`rounded-2xl border border-slate-200 bg-white p-6 shadow-sm ${
                  index === CAPABILITIES.length - 1 ? 'lg:col-span-2' : ''
                }`}
              >
                <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-slate-600">{summary}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="promises-title" className="bg-slate-900 px-4 py-16 text-white sm:px-6">
        <div className="mx-auto max-w-6xl">
          <h2 id="promises-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Built to run where your data lives
          </h2>
          <ul className="mt-10 grid gap-8 md:grid-cols-3">
            {PROMISES.map(({ icon: Icon, title, text }) => (
              <li key={title}>
                <Icon className="size-7 text-brand-100" aria-hidden="true" />
                <h3 className="mt-3 font-semibold">{title}</h3>
                <p className="mt-2 text-slate-300">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <CallToAction
        title="Start with Atrium today"
        text="Your first sign-in with your identity provider creates your account: files, speech, vision and notifications are ready at once."
        action="Sign up free"
        to="/login"
      />
    </>
  );
}
