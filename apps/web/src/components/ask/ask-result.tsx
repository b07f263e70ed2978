import { buttonClass } from '../ui/button';
import { Alert } from '../ui/alert';
import { AskAnswer } from './ask-answer';
import type { AskState } from './use-ask';

export interface AskResultProps {
  state: AskState;
  onCancel: () => void;
  /** What the box is called for screen readers ("Answer", "Summary"). */
  label: string;
  /** Shown while the first words are awaited. */
  waiting?: string;
}

/** The box under an "Ask" or "Summarise" button: the answer as it streams with Cancel, the answer, or the error. */
export function AskResult({ state, onCancel, label, waiting = 'Looking through your files…' }: AskResultProps) {
  if (state.status === 'idle') return null;
  return (
    <section aria-label={label} className="rounded-xl border border-brand-100 bg-white p-4" data-testid="ask-result">
      {state.status === 'asking' && (
        <div className="space-y-3">
          {state.partial ? (
            <AskAnswer answer={state.partial} citations={[]} streaming />
          ) : (
            <p role="status" className="text-sm text-slate-600">
              {waiting}
            </p>
          )}
          <button type="button" onClick={onCancel} className={buttonClass('secondary')}>
            Cancel
          </button>
        </div>
      )}
      {state.status === 'done' && <AskAnswer answer={state.response.answer} citations={state.response.citations} />}
      {state.status === 'error' && <Alert>{state.message}</Alert>}
    </section>
  );
}
