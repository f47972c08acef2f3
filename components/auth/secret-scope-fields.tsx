"use client";
// A stored secret's usage scope, as an admin edits it: may operators use it,
// with which adapters, and to which hosts may it be sent.
import { INPUT } from "./field";

export const USE_KINDS = ["command", "llm", "webhook"] as const;
export type UseKind = (typeof USE_KINDS)[number];

export interface ScopeDraft {
  operators: boolean;
  kinds: UseKind[];
  hosts: string;
}

export const EMPTY_SCOPE: ScopeDraft = { operators: false, kinds: [], hosts: "" };

export function draftOf(scope: { roles: string[]; kinds: string[]; hosts: string[] } | null): ScopeDraft {
  if (!scope) return EMPTY_SCOPE;
  return {
    operators: scope.roles.includes("operator"),
    kinds: scope.kinds.filter((k): k is UseKind => (USE_KINDS as readonly string[]).includes(k)),
    hosts: scope.hosts.join(", "),
  };
}

export function scopeOf(draft: ScopeDraft) {
  return {
    roles: (draft.operators ? ["admin", "operator"] : ["admin"]) as ("admin" | "operator")[],
    kinds: draft.kinds,
    hosts: draft.hosts
      .split(/[\s,]+/)
      .map((h) => h.trim())
      .filter(Boolean),
  };
}

export function scopeSummary(scope: { roles: string[]; kinds: string[]; hosts: string[] } | null): string {
  if (!scope) return "";
  const who = scope.roles.includes("operator") ? "operators and admins" : "admins only";
  const what = scope.kinds.length ? scope.kinds.join(", ") : "any adapter";
  const where = scope.hosts.length ? `to ${scope.hosts.join(", ")}` : "to any host";
  return `${who} · ${what} · ${where}`;
}

export function SecretScopeFields({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: ScopeDraft;
  onChange: (next: ScopeDraft) => void;
}) {
  const toggleKind = (kind: UseKind) =>
    onChange({
      ...value,
      kinds: value.kinds.includes(kind) ? value.kinds.filter((k) => k !== kind) : [...value.kinds, kind],
    });
  return (
    <fieldset className="grid gap-3 sm:grid-cols-3">
      <legend className="sr-only">Who may use it</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          id={`${idPrefix}-operators`}
          type="checkbox"
          checked={value.operators}
          onChange={(e) => onChange({ ...value, operators: e.target.checked })}
        />
        Operators may use it
      </label>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-slate-600 dark:text-slate-400">Only for:</span>
        {USE_KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-1">
            <input
              id={`${idPrefix}-kind-${kind}`}
              type="checkbox"
              checked={value.kinds.includes(kind)}
              onChange={() => toggleKind(kind)}
            />
            {kind}
          </label>
        ))}
      </div>
      <div className="space-y-1">
        <label htmlFor={`${idPrefix}-hosts`} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Only sent to hosts
        </label>
        <input
          id={`${idPrefix}-hosts`}
          className={INPUT}
          placeholder="any host (e.g. api.openai.com)"
          value={value.hosts}
          onChange={(e) => onChange({ ...value, hosts: e.target.value })}
        />
      </div>
    </fieldset>
  );
}
