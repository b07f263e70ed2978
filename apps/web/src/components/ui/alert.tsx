import type { ReactNode } from 'react';

/** The looks of an error message, one definition each (colours and box; the text size is `SIZES`). */
const VARIANTS = {
  inline: 'text-red-700',
  box: 'break-words rounded-lg bg-red-50 px-3 py-2 text-red-800',
  panel: 'rounded-xl border border-red-200 bg-red-50 p-4 text-red-800',
} as const;

const SIZES = { xs: 'text-xs', sm: 'text-sm', base: 'text-base' } as const;

export type AlertVariant = keyof typeof VARIANTS;

export interface AlertProps {
  children: ReactNode;
  /**
   * `inline` (default): red text under a field, in a form, dialog or section, or in place of a list that failed;
   * `box`: on a light red background, a form's or page's message above its content; `panel`: a bordered red card in
   * place of a page's whole result area.
   */
  variant?: AlertVariant;
  /** `sm` unless told; `xs` in dense rows (an upload's line, the sidebar), `base` beside a page's base-size texts. */
  size?: keyof typeof SIZES;
  /** Margins and layout (`mt-2`, `w-full`), not colours or sizes: the variant and `size` decide those. */
  className?: string;
  /** For a field's `aria-describedby` / `aria-errormessage`. */
  id?: string;
}

/** The error message of the UI kit (after bulletproof-react's `components/ui`): an announced `role="alert"` paragraph. */
export function Alert({ children, variant = 'inline', size = 'sm', className, id }: AlertProps) {
  return (
    <p id={id} role="alert" className={[className, VARIANTS[variant], SIZES[size]].filter(Boolean).join(' ')}>
      {children}
    </p>
  );
}
