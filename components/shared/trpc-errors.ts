// Reading tRPC errors in the browser: a message for people, and field errors
// for forms. zod's error message is the JSON list of issues (with full paths);
// the flattened error only keys the first path segment, so it is the fallback.

export interface FieldIssue {
  path: string;
  message: string;
}

interface ErrorLike {
  message?: string;
  data?: {
    code?: string;
    zodError?: { formErrors?: string[]; fieldErrors?: Record<string, string[] | undefined> } | null;
  } | null;
}

export function fieldIssues(error: unknown): FieldIssue[] {
  const e = error as ErrorLike | null;
  if (!e) return [];
  try {
    const parsed: unknown = JSON.parse(e.message ?? "");
    if (Array.isArray(parsed)) {
      return parsed
        .filter(
          (i): i is { path: unknown[]; message: string } =>
            !!i && Array.isArray(i.path) && typeof i.message === "string",
        )
        .map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
    }
  } catch {
    // not a zod issue list
  }
  const z = e.data?.zodError;
  if (!z) return [];
  return [
    ...(z.formErrors ?? []).map((message) => ({ path: "", message })),
    ...Object.entries(z.fieldErrors ?? {}).flatMap(([path, messages]) =>
      (messages ?? []).map((message) => ({ path, message })),
    ),
  ];
}

/** One readable sentence for a toast or an alert. */
export function errorMessage(error: unknown): string {
  const issues = fieldIssues(error);
  if (issues.length) return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  const e = error as ErrorLike | null;
  return e?.message || "Something went wrong";
}

/**
 * The message of the first of `errors` that is set, or null when none is:
 * for panels that show an error only when a request failed (errorMessage
 * gives its fallback text for a missing error, so `a ?? b` never reaches b).
 */
export function firstErrorMessage(...errors: unknown[]): string | null {
  const error = errors.find((e) => e !== null && e !== undefined);
  return error === undefined ? null : errorMessage(error);
}
