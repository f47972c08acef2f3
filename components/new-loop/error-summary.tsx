"use client";
// All problems in one list at the top, each linking to its field; it takes
// focus after a failed submit so keyboard and screen-reader users land on it.
import { forwardRef } from "react";
import type { Issue } from "./validate";

const fieldDomId = (path: string) => `f-${path.split(".").join("-") || "root"}`;

export const ErrorSummary = forwardRef<HTMLDivElement, { issues: Issue[]; title?: string }>(function ErrorSummary(
  { issues, title = "Please fix these before creating the loop" },
  ref,
) {
  if (issues.length === 0) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="rounded-xl border border-rose-300 bg-rose-50 p-4 text-sm text-rose-900 focus:outline-2 focus:outline-rose-500 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-200"
    >
      <p className="font-semibold">{title}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {issues.slice(0, 20).map((issue, i) => (
          <li key={i}>
            {issue.path ? (
              <a
                href={`#${fieldDomId(issue.path)}`}
                className="underline"
                onClick={(e) => {
                  const el = document.getElementById(fieldDomId(issue.path));
                  if (!el) return;
                  e.preventDefault();
                  el.scrollIntoView({ block: "center" });
                  el.focus();
                }}
              >
                <code>{issue.path}</code>
              </a>
            ) : null}{" "}
            {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
});
