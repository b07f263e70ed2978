import type { FileView } from '@atrium/contracts';
import { LayoutGrid, List } from 'lucide-react';

const VIEWS: { value: FileView; label: string; Icon: typeof List }[] = [
  { value: 'list', label: 'List', Icon: List },
  { value: 'grid', label: 'Grid', Icon: LayoutGrid },
];

/** List or grid: two pressed-state buttons in a labelled group. */
export function ViewToggle({ view, onChange }: { view: FileView; onChange: (view: FileView) => void }) {
  return (
    <div role="group" aria-label="View" className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5">
      {VIEWS.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          onClick={() => view !== value && onChange(value)}
          className={`inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${
            view === value ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100'
          }`}
        >
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </button>
      ))}
    </div>
  );
}
