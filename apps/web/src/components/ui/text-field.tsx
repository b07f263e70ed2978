import { useId, type InputHTMLAttributes } from 'react';
import { Alert } from './alert';

export const inputClass =
  'w-full min-w-0 rounded-lg border border-slate-300 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-500';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the field and announced; marks the field invalid. */
  error?: string | null | undefined;
  hint?: string;
}

/** A labelled text input with an optional hint and an inline error (UI kit). */
export function TextField({ label, value, onChange, error, hint, className, ...rest }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        {...rest}
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`mt-1 ${inputClass}`}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <Alert id={errorId} className="mt-1">
          {error}
        </Alert>
      )}
    </div>
  );
}
