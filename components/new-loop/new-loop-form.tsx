"use client";
// The New-loop page: a form generated from `loops.formSchema` (the JSON
// Schema of the very zod schema `loops.create` validates with), started from
// a template or cloned from a loop, checked in the browser from the schema's
// constraints and then by the server, whose errors land on the same fields.
import { redactedFieldLabel } from "./redacted-label";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { LoopTemplate } from "@/components/shared/api-types";
import { errorMessage, fieldIssues } from "@/components/shared/trpc-errors";
import { NO_EVIDENCE_LABEL, runsWithoutEvidence } from "@/components/report/report-model";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Checkbox } from "@/components/ui/field";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Tabs } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toast";
import { CheckPreview } from "./check-preview";
import { PreflightPanel } from "./preflight-panel";
import { SecretPicker } from "./secret-picker";
import { ErrorSummary } from "./error-summary";
import { FormContext, type FormContextValue } from "./form-context";
import { JsonEditor } from "./json-editor";
import { setAt, type JsonSchema, type Path } from "./json-schema";
import { Properties } from "./object-field";
import { SchemaField } from "./schema-field";
import { TemplatePicker } from "./template-picker";
import { issuesByPath, validateValue, type Issue } from "./validate";

const ROOT_ORDER = ["goal", "name", "agent", "fallbackAgent", "scorers", "verifier", "reflector", "loop", "workspace"];

export function NewLoopForm({ from }: { from?: string }) {
  const trpc = useTRPC();
  const schema = useQuery(trpc.loops.formSchema.queryOptions());
  const templates = useQuery(trpc.loops.templates.queryOptions());
  const source = useQuery({ ...trpc.loops.definition.queryOptions({ id: from ?? "" }), enabled: !!from });

  if (schema.isPending || templates.isPending || (from && source.isPending))
    return <SkeletonRows rows={6} label="Loading the form" className="h-16" />;
  if (schema.isError || templates.isError)
    return (
      <ErrorState
        title="Could not load the form"
        message={errorMessage(schema.error ?? templates.error)}
        onRetry={() => void (schema.refetch(), templates.refetch())}
      />
    );
  if (from && source.isError)
    return (
      <ErrorState
        title="Could not load the loop to clone"
        message={errorMessage(source.error)}
        onRetry={() => source.refetch()}
      />
    );
  const clone = from && source.data ? source.data : null;
  return <LoopForm schema={schema.data as JsonSchema} templates={templates.data} clone={clone} />;
}

function LoopForm({
  schema,
  templates,
  clone,
}: {
  schema: JsonSchema;
  templates: LoopTemplate[];
  clone: { sourceId: string; definition: Record<string, unknown>; redactedPaths: string[] } | null;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const first = templates[0] ?? null;
  const [templateId, setTemplateId] = useState<string | null>(clone ? null : (first?.id ?? null));
  const [value, setValue] = useState<unknown>(() =>
    structuredClone(clone?.definition ?? first?.definition ?? { goal: "", agent: { kind: "demo" } }),
  );
  // Bumped when values are replaced wholesale, so fields holding raw text start over.
  const [version, setVersion] = useState(0);
  const [mode, setMode] = useState("form");
  const [start, setStart] = useState(true);
  const [issues, setIssues] = useState<Issue[]>([]);
  const summary = useRef<HTMLDivElement>(null);
  const create = useMutation(trpc.loops.create.mutationOptions());
  const me = useQuery(trpc.auth.me.queryOptions());
  // Viewers may look at the form; only operators can create. Until auth.me answers, nobody can.
  const canCreate = me.data?.permissions.operateLoops ?? false;
  const readOnly = me.isSuccess && !canCreate;
  const valid = useMemo(() => validateValue(schema, value).length === 0, [schema, value]);

  const set = useCallback((path: Path, next: unknown) => setValue((v: unknown) => setAt(v, path, next)), []);
  const errors = useMemo(() => issuesByPath(issues), [issues]);
  const workspace = String((value as { workspace?: unknown } | null)?.workspace ?? "");
  const isolation = (value as { isolation?: unknown } | null)?.isolation === "in-place" ? "in-place" : "worktree";
  const setup = (value as { setup?: Record<string, unknown> } | null)?.setup;
  const noEvidence = runsWithoutEvidence(
    (value as { loop?: { completion?: { allowNoEvidence?: boolean } } } | null)?.loop,
  );
  const context = useMemo<FormContextValue>(
    () => ({
      set,
      errors,
      hasErrorsUnder: (key) => [...errors.keys()].some((k) => k === key || k.startsWith(`${key}.`)),
      redacted: new Set(clone?.redactedPaths ?? []),
      SchemaField,
      itemExtra: (path, item) =>
        path[0] === "scorers" && (item as { kind?: unknown } | null)?.kind === "command-check" ? (
          <CheckPreview
            check={item as Record<string, unknown>}
            workspace={workspace}
            isolation={isolation}
            {...(setup ? { setup } : {})}
          />
        ) : null,
    }),
    [set, errors, clone, workspace, isolation, setup],
  );

  function replace(next: unknown, id: string | null) {
    setValue(structuredClone(next));
    setTemplateId(id);
    setIssues([]);
    setVersion((n) => n + 1);
  }

  function fail(found: Issue[]) {
    setIssues(found);
    requestAnimationFrame(() => summary.current?.focus());
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!canCreate) return;
    const found = validateValue(schema, value);
    if (found.length) return fail(found);
    try {
      const { id } = await create.mutateAsync({ ...(value as Record<string, unknown>), start } as Parameters<
        typeof create.mutateAsync
      >[0]);
      toast(start ? "Loop created and queued" : "Loop saved as a draft", "success");
      router.push(`/loops/${id}`);
    } catch (error) {
      const server = fieldIssues(error);
      if (server.length) fail(server);
      else toast(`Could not create the loop: ${errorMessage(error)}`, "error");
    }
  }

  return (
    <FormContext.Provider value={context}>
      <form onSubmit={submit} noValidate className="space-y-6" aria-label="New loop">
        {readOnly && (
          <div
            role="note"
            data-testid="viewer-notice"
            className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            You are signed in as a viewer: you can look through the templates and the form, but only an operator or an
            admin can create loops. Ask an admin for the operator role.
          </div>
        )}
        {clone ? (
          <div className="rounded-xl border border-sky-200 bg-sky-50 p-4 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100">
            Cloned from{" "}
            <a className="underline" href={`/loops/${clone.sourceId}`}>
              loop {clone.sourceId.slice(0, 8)}
            </a>
            .{" "}
            {clone.redactedPaths.length > 0
              ? `${clone.redactedPaths.length} sensitive field${clone.redactedPaths.length === 1 ? " was" : "s were"} redacted and must be entered again: ${clone.redactedPaths.map((p) => redactedFieldLabel(p, clone.definition)).join(", ")}.`
              : "Nothing sensitive had to be redacted."}
          </div>
        ) : (
          <TemplatePicker templates={templates} selected={templateId} onSelect={(t) => replace(t.definition, t.id)} />
        )}
        <ErrorSummary ref={summary} issues={issues} />
        <Tabs
          label="Edit as"
          value={mode}
          onChange={(m) => {
            setMode(m);
            setVersion((n) => n + 1);
          }}
          items={[
            {
              id: "form",
              label: "Form",
              content: (
                <fieldset disabled={readOnly} className="min-w-0">
                  <Properties key={version} schema={schema} value={value} path={[]} depth={0} order={ROOT_ORDER} />
                </fieldset>
              ),
            },
            {
              id: "json",
              label: "JSON",
              content: (
                <fieldset disabled={readOnly} className="min-w-0">
                  <JsonEditor key={version} value={value} onChange={setValue} />
                </fieldset>
              ),
            },
          ]}
        />
        <SecretPicker
          value={value}
          enabled={canCreate}
          onPick={(path, secret) => {
            set(path, secret);
            // The JSON tab holds its own text: start it over from the new value.
            setVersion((n) => n + 1);
          }}
        />
        <PreflightPanel value={value} enabled={canCreate && valid} />
        <div className="sticky bottom-0 -mx-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-slate-50/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border dark:border-slate-800 dark:bg-slate-950/95">
          {noEvidence && (
            <p
              role="note"
              data-testid="no-evidence-notice"
              className="w-full text-sm text-amber-800 dark:text-amber-300"
            >
              <Badge tone="warn">{NO_EVIDENCE_LABEL}</Badge> This loop has no evidence source
              (completion.allowNoEvidence): nothing can prove it done, so it runs until a limit stops it.
            </p>
          )}
          <Checkbox
            id="start-now"
            label="Start immediately"
            hint="Otherwise it is saved as a draft you can start later."
            checked={start}
            disabled={!canCreate}
            onChange={(e) => setStart(e.target.checked)}
          />
          <Button type="submit" pending={create.isPending} disabled={create.isPending || !canCreate}>
            {start ? "Create and start loop" : "Save draft"}
          </Button>
        </div>
      </form>
    </FormContext.Provider>
  );
}
