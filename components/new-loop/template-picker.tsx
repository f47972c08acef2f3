"use client";
// Templates as a radio group of cards: picking one replaces the form's values.
import type { LoopTemplate } from "@/components/shared/api-types";

export function TemplatePicker({
  templates,
  selected,
  onSelect,
}: {
  templates: LoopTemplate[];
  selected: string | null;
  onSelect: (t: LoopTemplate) => void;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold">Start from a template</legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {templates.map((t) => {
          const active = selected === t.id;
          return (
            <label
              key={t.id}
              className={`flex cursor-pointer flex-col rounded-xl border p-3 text-sm transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sky-500 ${
                active
                  ? "border-slate-900 bg-slate-50 dark:border-white dark:bg-slate-800"
                  : "border-slate-200 bg-white hover:border-slate-400 dark:border-slate-800 dark:bg-slate-900"
              }`}
            >
              <span className="flex items-center gap-2 font-medium">
                <input
                  type="radio"
                  name="template"
                  className="h-4 w-4 accent-slate-900 dark:accent-white"
                  checked={active}
                  onChange={() => onSelect(t)}
                />
                {t.title}
              </span>
              <span className="mt-1 text-xs text-slate-600 dark:text-slate-400">{t.description}</span>
              {t.requires && (
                <span className="mt-1 text-xs text-amber-800 dark:text-amber-300">Needs {t.requires}.</span>
              )}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
