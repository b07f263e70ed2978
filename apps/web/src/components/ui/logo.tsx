/** The Atrium mark (decorative: put the product name next to it). */
export function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" className="fill-brand-600" />
      <path d="M9 23 16 8l7 15" fill="none" stroke="white" strokeWidth="2.6" strokeLinejoin="round" />
      <path d="M11.8 18h8.4" stroke="white" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}
