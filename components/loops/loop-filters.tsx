"use client";
// Filters, sort and search for the loops list; every change goes to the URL.
import { useEffect, useState } from "react";
import { Select, TextInput } from "@/components/ui/field";
import { isLoopStatus, statusDisplay } from "./format";
import { AGENT_FILTERS, hasFilters, STATUS_FILTERS, toSearch, type ListParams, type ListSort } from "./list-params";

const SORT_LABELS: Record<ListSort, string> = {
  updated: "Last update",
  created: "Created",
  cost: "Cost",
  iteration: "Iteration",
};

function MultiSelect({
  label,
  options,
  selected,
  render,
  onChange,
}: {
  label: string;
  options: readonly string[];
  selected: string[];
  render: (v: string) => string;
  onChange: (next: string[]) => void;
}) {
  return (
    <details className="group relative">
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-sky-500 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800">
        {label}
        {selected.length > 0 && (
          <span className="rounded-full bg-slate-900 px-1.5 text-xs text-white dark:bg-white dark:text-slate-900">
            {selected.length}
          </span>
        )}
        <span aria-hidden className="text-xs text-slate-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <fieldset className="absolute left-0 z-20 mt-1 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <legend className="sr-only">{label}</legend>
        {options.map((value) => (
          <label
            key={value}
            className="flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
          >
            <input
              type="checkbox"
              className="h-4 w-4 accent-slate-900 dark:accent-white"
              checked={selected.includes(value)}
              onChange={(e) => onChange(e.target.checked ? [...selected, value] : selected.filter((s) => s !== value))}
            />
            {render(value)}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

export function LoopFilters({ params, onChange }: { params: ListParams; onChange: (next: ListParams) => void }) {
  // The controls show a local copy, so a click shows at once while the URL
  // (a navigation) catches up. The copy follows the URL when it changes from
  // outside (back/forward); a URL that is only an earlier step of our own
  // navigations is ignored, or a quick second click would flicker back.
  const [draft, setDraft] = useState({ value: params, from: toSearch(params), pending: null as string | null });
  const url = toSearch(params);
  if (draft.from !== url) {
    if (draft.pending === null || draft.pending === url) setDraft({ value: params, from: url, pending: null });
    else setDraft({ ...draft, from: url });
  }
  const shown = draft.value;
  const push = (next: ListParams) => {
    setDraft((d) => ({ ...d, value: next, pending: toSearch(next) }));
    onChange(next);
  };
  const text = shown.text;
  const setText = (next: string) => setDraft((d) => ({ ...d, value: { ...d.value, text: next } }));
  // Typing reaches the URL after a pause, not on every key.
  useEffect(() => {
    if (text === params.text) return;
    const id = setTimeout(() => push({ ...shown, text, cursor: null }), 300);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- push is recreated each render; shown and text carry what it needs
  }, [text, params.text, shown]);

  return (
    <div className="mb-4 flex flex-wrap items-center gap-2" role="search" aria-label="Filter loops">
      <TextInput
        type="search"
        aria-label="Search goals and names"
        placeholder="Search goals…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="w-full sm:w-64"
      />
      <MultiSelect
        label="Status"
        options={STATUS_FILTERS}
        selected={shown.status}
        render={(v) => (isLoopStatus(v) ? statusDisplay(v).label : v)}
        onChange={(status) => push({ ...shown, status, cursor: null })}
      />
      <MultiSelect
        label="Agent"
        options={AGENT_FILTERS}
        selected={shown.agentKind}
        render={(v) => v}
        onChange={(agentKind) => push({ ...shown, agentKind, cursor: null })}
      />
      <div className="flex items-center gap-1">
        <Select
          aria-label="Sort by"
          value={shown.sort}
          onChange={(e) => push({ ...shown, sort: e.target.value as ListSort, cursor: null })}
          className="w-auto"
        >
          {Object.entries(SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Sort direction"
          value={shown.direction}
          onChange={(e) => push({ ...shown, direction: e.target.value as "asc" | "desc", cursor: null })}
          className="w-auto"
        >
          <option value="desc">Descending</option>
          <option value="asc">Ascending</option>
        </Select>
      </div>
      {hasFilters(shown) && (
        <button
          type="button"
          className="px-2 text-sm text-slate-600 underline hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
          onClick={() => push({ ...shown, status: [], agentKind: [], text: "", cursor: null })}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}
