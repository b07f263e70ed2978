import { Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMe } from '../../../lib/me';
import { EmailSection } from '../components/email-section';

/** Banners show for 5 s (docs/PRODUCT.md#banners). */
export const BANNER_MS = 5000;

function initialsOf(name: string) {
  return name
    .split(/[\s@._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

/** The profile: identity data (name, nickname, email, picture) and the first-login greeting banner. */
export function Profile({ greeting }: { greeting: string | null }) {
  useDocumentTitle('Profile');
  const me = useMe();
  const [expired, setExpired] = useState<string | null>(null);
  const bannerVisible = Boolean(greeting) && expired !== greeting;

  useEffect(() => {
    if (!greeting) return;
    const timer = setTimeout(() => setExpired(greeting), BANNER_MS);
    return () => clearTimeout(timer);
  }, [greeting]);

  const user = me.data;
  if (!user) return <Spinner />;
  const displayName = user.name ?? user.nickname ?? user.ownerKey;
  const rows: [string, string | null][] = [
    ['Name', user.name],
    ['Nickname', user.nickname],
    ['Email', user.email],
    ['Role', user.isAdmin ? 'Admin' : 'Member'],
  ];

  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      {bannerVisible && greeting && (
        <div
          role="status"
          className="mb-6 flex items-center gap-3 rounded-xl bg-brand-50 p-4 text-brand-900 ring-1 ring-brand-100"
        >
          <Sparkles className="size-5 shrink-0" aria-hidden="true" />
          <p>{greeting}</p>
        </div>
      )}
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Profile</h1>
      <div className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <div className="flex items-center gap-4">
          {user.picture ? (
            <img
              src={user.picture}
              alt={`Picture of ${displayName}`}
              width={72}
              height={72}
              className="size-18 rounded-full object-cover"
            />
          ) : (
            <span
              className="flex size-18 items-center justify-center rounded-full bg-brand-600 text-2xl font-semibold text-white"
              role="img"
              aria-label={`No picture; initials of ${displayName}`}
            >
              {initialsOf(displayName)}
            </span>
          )}
          <div>
            <p className="text-lg font-semibold text-slate-900">{displayName}</p>
            <p className="text-sm text-slate-600">Files are stored under “{user.ownerKey}”</p>
          </div>
        </div>
        <dl className="mt-6 divide-y divide-slate-100 border-t border-slate-100">
          {rows.map(([label, value]) => (
            <div key={label} className="grid grid-cols-3 gap-4 py-3 text-sm">
              <dt className="font-medium text-slate-600">{label}</dt>
              <dd className="col-span-2 break-words text-slate-900">{value ?? 'Not set'}</dd>
            </div>
          ))}
        </dl>
      </div>
      <EmailSection />
    </section>
  );
}
