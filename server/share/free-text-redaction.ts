// Free text an operator types (a terminate or kill reason, an approval
// comment, a nudge) is published on the shared report. Before it leaves, it
// goes through the same rules the operator previews in the dialog: anything
// shaped like a credential, and e-mail addresses, become [redacted]. Names
// of variables stay ("ANTHROPIC_API_KEY=[redacted]") so the text still reads.
import { REDACTED } from "../agents/redact";

const RULES: { name: string; pattern: RegExp; keep?: number }[] = [
  // NAME=value / NAME: value where the name says it is a credential.
  {
    name: "credential",
    pattern: /\b([A-Za-z0-9_]*(?:key|token|secret|password|passwd)[A-Za-z0-9_]*\s*[=:]\s*)(\S+)/gi,
    keep: 1,
  },
  { name: "bearer", pattern: /\b(bearer\s+)([A-Za-z0-9._~+/-]{8,}=*)/gi, keep: 1 },
  { name: "provider key", pattern: /\b(?:sk|pk|rk)-(?:[a-z]+-)?[A-Za-z0-9_-]{16,}/g },
  { name: "GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/g },
  { name: "AWS key", pattern: /\bAKIA[0-9A-Z]{16}\b/g },
  { name: "Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: "JWT", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: "e-mail address", pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g },
  // A long opaque run of letters and digits together is a key more often than a word.
  { name: "opaque token", pattern: /\b(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{32,}={0,2}/g },
];

export interface FreeTextRedaction {
  /** The text as the shared page shows it. */
  text: string;
  /** What was blanked, by kind (never the values). */
  redacted: { kind: string; count: number }[];
}

export function redactFreeText(text: string): FreeTextRedaction {
  let out = text;
  const counts = new Map<string, number>();
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...m: string[]) => {
      if (m[0]!.includes(REDACTED)) return m[0]!;
      counts.set(rule.name, (counts.get(rule.name) ?? 0) + 1);
      return rule.keep ? `${m[rule.keep]}${REDACTED}` : REDACTED;
    });
  }
  return { text: out, redacted: [...counts].map(([kind, count]) => ({ kind, count })) };
}

/** redactFreeText over every string inside plain data (event payloads, approval rows). */
export function redactFreeTextDeep<T>(value: T): T {
  if (typeof value === "string") return redactFreeText(value).text as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactFreeTextDeep(v)) as T;
  if (value instanceof Date || typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactFreeTextDeep(v)])) as T;
}
