import { useRef } from 'react';
import { CopyButton } from '../../../components/ui/copy-button';
import { inputClass } from '../../../components/ui/text-field';

/** A link to hand over (shown once), with Copy. */
export function HandOver({ label, url, expiresAt }: { label: string; url: string; expiresAt: string }) {
  const field = useRef<HTMLInputElement>(null);
  const absolute = new URL(url, window.location.origin).toString();
  return (
    <div role="status" className="mt-3 space-y-2 rounded-lg bg-brand-50 p-3">
      <p className="text-sm text-slate-700">
        {label} (valid until {new Date(expiresAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}):
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={field}
          readOnly
          value={absolute}
          aria-label={label}
          className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
        />
        <CopyButton text={absolute} field={field} what="Link" />
      </div>
    </div>
  );
}
