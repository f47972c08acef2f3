import type { ReactNode, ThHTMLAttributes, TdHTMLAttributes } from "react";

/** A table that scrolls inside its own box on narrow screens, never the page; the box is focusable so keys scroll it. */
export function Table({ children, label, className = "" }: { children: ReactNode; label: string; className?: string }) {
  return (
    <div
      role="region"
      aria-label={`${label} (scrolls sideways)`}
      tabIndex={0}
      className={`overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <table aria-label={label} className="w-full text-left text-sm">
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
