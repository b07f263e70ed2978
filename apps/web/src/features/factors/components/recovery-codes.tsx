import { Download } from 'lucide-react';
import { useRef } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';

/** Ten recovery codes, shown once: Copy, Download (a text file), and a "done" button. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const field = useRef<HTMLTextAreaElement>(null);
  const text = `${codes.join('\n')}\n`;
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div className="mt-4 space-y-3">
      <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
        Save these recovery codes somewhere safe. Each signs you in once if you lose your phone; they are not shown
        again.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900 sm:grid-cols-5"
      >
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <textarea ref={field} readOnly value={text} className="sr-only" aria-hidden="true" tabIndex={-1} />
      <div className="flex flex-wrap items-center gap-2">
        <CopyButton text={text} field={field} what="Recovery codes" />
        <a href={download} download="atrium-recovery-codes.txt" className={buttonClass('secondary')}>
          <Download aria-hidden="true" className="size-4" />
          Download
        </a>
        <button type="button" className={buttonClass()} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
