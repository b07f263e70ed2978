import type { ReactNode } from 'react';

/** A column of a file table: its heading and its classes (width, from which breakpoint it shows). */
export interface TableColumn {
  label: string;
  className: string;
}

/**
 * The head of a table of files (and folders): `leading` (say, a select-all box), the labelled columns, and the
 * unlabelled column of the row menus last.
 */
export function TableHead({ columns, leading }: { columns: TableColumn[]; leading?: ReactNode }) {
  return (
    <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
      <tr>
        {leading}
        {columns.map((column) => (
          <th key={column.label} scope="col" className={column.className}>
            {column.label}
          </th>
        ))}
        <th scope="col" className="w-14 px-3 py-2">
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
