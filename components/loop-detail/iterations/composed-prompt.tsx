"use client";
// The exact prompt an iteration's agent received, with the start of each
// composed section (goal, completion protocol, failing tests, ...) marked.
import { promptParts } from "./prompt-sections";

export function ComposedPrompt({ input, number }: { input: string; number: number }) {
  const parts = promptParts(input);
  const sections = parts.filter((p) => p.heading !== "").map((p) => p.name);
  return (
    <>
      {sections.length > 0 && (
        <p className="mb-1 text-xs text-slate-600 dark:text-slate-400" data-testid="prompt-section-list">
          Goal, then: {sections.join(" · ")}
        </p>
      )}
      <pre
        aria-label={`Input of iteration ${number}`}
        className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-2 text-xs leading-relaxed dark:border-slate-800 dark:bg-slate-950"
      >
        {input === ""
          ? "(empty)"
          : parts.map((p, i) => (
              <span key={i} data-section={p.name}>
                {p.heading && (
                  <strong data-testid="prompt-section" className="font-semibold text-sky-800 dark:text-sky-300">
                    {p.heading}
                  </strong>
                )}
                {p.body}
              </span>
            ))}
      </pre>
    </>
  );
}
