import type { ReactNode, ThHTMLAttributes, TdHTMLAttributes } from "react";

/**
 * A table that scrolls inside its own box on narrow screens, never the page; the box is focusable so keys scroll it.
 * `columns`: the header row's labels (a table with a header of its own passes it as children instead).
 */
export function Table({
  children,
  label,
  columns,
  className = "",
}: {
  children: ReactNode;
  label: string;
  columns?: readonly string[];
  className?: string;
}) {
  return (
    <div
      role="region"
      aria-label={`${label} (scrolls sideways)`}
      tabIndex={0}
      className={`overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <table aria-label={label} className="w-full text-left text-sm">
        {columns && (
          <thead className="border-b border-slate-200 dark:border-slate-800">
            <tr>
              {columns.map((column) => (
                <Th key={column}>{column}</Th>
              ))}
            </tr>
          </thead>
        )}
        {children}
      </table>
    </div>
  );
}

export function Th({ children, className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={`px-3 py-2.5 text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400 ${className}`}
      {...props}
    >
      {children}
    </th>
  );
}

export function Td({ children, className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={`px-3 py-2.5 align-middle ${className}`} {...props}>
      {children}
    </td>
  );
}
