// A chart's data as a table: the "view as table" alternative to the drawing,
// scrollable inside its own focusable, labelled region.
import type { ChartTableData } from "./chart-summaries";

export function ChartTable({
  title,
  table,
  className = "h-60",
}: {
  title: string;
  table: ChartTableData;
  className?: string;
}) {
  return (
    <div
      role="region"
      aria-label={`${title} (table)`}
      tabIndex={0}
      className={`overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-700 dark:border-slate-800 dark:focus-visible:outline-sky-400 ${className}`}
    >
      <table className="w-full text-left text-xs tabular-nums">
        <caption className="sr-only">{title}</caption>
        <thead className="sticky top-0 bg-slate-50 dark:bg-slate-800">
          <tr>
            {table.columns.map((c) => (
              <th key={c} scope="col" className="px-2 py-1.5 font-medium text-slate-700 dark:text-slate-200">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i} className="border-t border-slate-100 dark:border-slate-800">
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className="px-2 py-1 font-normal">
                    {cell}
                  </th>
                ) : (
                  <td key={j} className="px-2 py-1">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
