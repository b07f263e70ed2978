import { CheckCircle2, Mail, MessageSquare, TriangleAlert } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '../../../lib/api-error';
import { usePageMeta } from '../../../lib/use-page-meta';
import { PAGE_META } from '../page-meta';
import { sendContactMessage } from '../api/send-contact';
import {
  validateContact,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from '../components/contact-validation';
import { EnvelopeIllustration } from '../components/illustrations';
import { PageHeader } from '../components/page-header';

const EMPTY: ContactValues = { name: '', email: '', message: '' };
const FIELDS: ContactField[] = ['name', 'email', 'message'];

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string };

export default function ContactPage() {
  usePageMeta(PAGE_META['/contact']);
  const [values, setValues] = useState<ContactValues>(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const id = useId();
  const refs = useRef<Partial<Record<ContactField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  const update = (field: ContactField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    const firstInvalid = FIELDS.find((field) => found[field]);
    if (firstInvalid) {
      refs.current[firstInvalid]?.focus();
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      await sendContactMessage({
        name: values.name.trim(),
        email: values.email.trim(),
        message: values.message.trim(),
      });
      setStatus({ kind: 'sent' });
      setValues(EMPTY);
    } catch (error) {
      const fieldErrors: ContactErrors = {};
      if (isApiError(error)) {
        for (const detail of error.details ?? []) {
          const field = detail.path.replace(/^body\./, '') as ContactField;
          if (FIELDS.includes(field)) fieldErrors[field] = detail.message;
        }
      }
      setErrors(fieldErrors);
      setStatus({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'Something went wrong. Please try again.',
      });
    }
  };

  const fieldClass = (field: ContactField) =>
    `mt-1.5 block w-full rounded-lg border px-3 py-2.5 text-slate-900 shadow-sm focus:outline-2 focus:outline-offset-0 ${
      errors[field]
        ? 'border-red-600 focus:outline-red-600'
        : 'border-slate-300 focus:border-brand-600 focus:outline-brand-600'
    }`;
  const describedBy = (field: ContactField) => (errors[field] ? `${id}-${field}-error` : undefined);
  const fieldError = (field: ContactField) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="mt-1.5 text-sm text-red-700">
        {errors[field]}
      </p>
    ) : null;

  return (
    <>
      <PageHeader eyebrow="Contact" title="Talk to the Atrium team">
        <p>Questions about plans, self-hosting or Enterprise terms? Leave a message for the team here.</p>
      </PageHeader>
      <section aria-label="Contact form" className="px-4 py-16 sm:px-6">
        <div className="mx-auto grid max-w-5xl gap-12 lg:grid-cols-[1fr_1.4fr]">
          <div className="space-y-6">
            <EnvelopeIllustration className="aspect-[16/11] w-full max-w-sm" />
            <p className="flex items-start gap-3 text-slate-600">
              <Mail className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />
              Messages are stored on this server for its administrators, who read them in Atrium. Nothing is sent by
              email: leave an address where they can answer you.
            </p>
            <p className="flex items-start gap-3 text-slate-600">
              <MessageSquare className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />
              Prefer to explore first? The assistant at the bottom right answers instantly.
            </p>
          </div>
          <form
            noValidate
            onSubmit={(event) => void submit(event)}
            className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
          >
            {status.kind === 'sent' && (
              <div role="status" className="mb-6 flex items-start gap-3 rounded-lg bg-emerald-50 p-4 text-emerald-900">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
                <p>
                  Thank you! Your message has been sent: it is stored for this site’s administrators, who can answer you
                  at your email address.
                </p>
              </div>
            )}
            {status.kind === 'failed' && (
              <div role="alert" className="mb-6 flex items-start gap-3 rounded-lg bg-red-50 p-4 text-red-900">
                <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
                <p>Your message could not be sent. {status.message}</p>
              </div>
            )}
            <div className="space-y-5">
              <div>
                <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-900">
                  Name
                </label>
                <input
                  id={`${id}-name`}
                  ref={(element) => {
                    refs.current.name = element;
                  }}
                  name="name"
                  autoComplete="name"
                  required
                  aria-invalid={errors.name ? true : undefined}
                  aria-describedby={describedBy('name')}
                  value={values.name}
                  onChange={(event) => update('name', event.target.value)}
                  className={fieldClass('name')}
                />
                {fieldError('name')}
              </div>
              <div>
                <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-900">
                  Email
                </label>
                <input
                  id={`${id}-email`}
                  ref={(element) => {
                    refs.current.email = element;
                  }}
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  aria-invalid={errors.email ? true : undefined}
                  aria-describedby={describedBy('email')}
                  value={values.email}
                  onChange={(event) => update('email', event.target.value)}
                  className={fieldClass('email')}
                />
                {fieldError('email')}
              </div>
              <div>
                <label htmlFor={`${id}-message`} className="block text-sm font-medium text-slate-900">
                  Message
                </label>
                <textarea
                  id={`${id}-message`}
                  ref={(element) => {
                    refs.current.message = element;
                  }}
                  name="message"
                  rows={6}
                  required
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={describedBy('message')}
                  value={values.message}
                  onChange={(event) => update('message', event.target.value)}
                  className={fieldClass('message')}
                />
                {fieldError('message')}
              </div>
            </div>
            <button
              type="submit"
              disabled={status.kind === 'sending'}
              className="mt-6 w-full rounded-lg bg-brand-600 px-4 py-3 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-70 sm:w-auto"
            >
              {status.kind === 'sending' ? 'Sending…' : 'Send message'}
            </button>
          </form>
        </div>
      </section>
    </>
  );
}
