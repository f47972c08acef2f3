"use client";
// Admin: provider keys and webhook secrets. Values are write-only: the list
// shows "set" / "not set" and at most the last 4 characters.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRefresh } from "@/components/shared/use-refresh";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DangerRowAction } from "./danger-row-action";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError, SelectField } from "./field";
import { useFormFields } from "./use-form-fields";
import { draftOf, EMPTY_SCOPE, scopeOf, scopeSummary, SecretScopeFields, type ScopeDraft } from "./secret-scope-fields";
import { AddForm, Section, RowList } from "./section";

const KINDS = ["provider_key", "webhook_secret", "other"] as const;
type Kind = (typeof KINDS)[number];

export function SecretsSection() {
  const trpc = useTRPC();
  const secrets = useQuery(trpc.secrets.list.queryOptions());
  const refresh = useRefresh(trpc.secrets.list.queryKey());
  const set = useMutation(trpc.secrets.set.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.secrets.delete.mutationOptions({ onSuccess: refresh }));
  const setScope = useMutation(trpc.secrets.setScope.mutationOptions({ onSuccess: refresh }));
  const { form, setForm, bind } = useFormFields({ name: "", kind: "provider_key" as Kind, value: "" });
  // A short value is saved, with the server's warning that it cannot be redacted reliably.
  const [warning, setWarning] = useState<string | null>(null);
  const [scope, setScopeDraft] = useState<ScopeDraft>(EMPTY_SCOPE);
  const [editing, setEditing] = useState<{ id: string; draft: ScopeDraft } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(
      { ...form, scope: scopeOf(scope) },
      {
        onSuccess: (saved) => {
          setWarning(saved.warning);
          setForm({ name: "", kind: "provider_key", value: "" });
          setScopeDraft(EMPTY_SCOPE);
        },
      },
    );
  };

  return (
    <Section
      title="Secrets"
      description='Encrypted at rest. Loops reference them by id or name, e.g. "apiKeySecret": "OPENAI_API_KEY"; values are never shown again. Each secret has a scope: who may use it, with which adapters, sent to which hosts.'
    >
      <FormError message={errorMessage(secrets.error) ?? errorMessage(remove.error) ?? errorMessage(setScope.error)} />
      <RowList items={secrets.data} empty="No secrets yet">
        {(secret) => (
          <li key={secret.name} className="flex flex-wrap items-center gap-3 py-2">
            <span className="font-mono">{secret.name}</span>
            <span className="text-slate-600 dark:text-slate-400">{secret.kind.replace("_", " ")}</span>
            {secret.status === "set" ? <Badge tone="good">set</Badge> : <Badge>not set</Badge>}
            {secret.last4 && <span className="font-mono text-slate-600 dark:text-slate-400">…{secret.last4}</span>}
            {secret.scope && (
              <span className="text-xs text-slate-600 dark:text-slate-400" data-testid={`scope-${secret.name}`}>
                {scopeSummary(secret.scope)}
              </span>
            )}
            <span className="ml-auto" />
            {secret.id && secret.scope && (
              <Button
                variant="ghost"
                aria-label={`Scope of ${secret.name}`}
                onClick={() => setEditing({ id: secret.id!, draft: draftOf(secret.scope) })}
              >
                Scope
              </Button>
            )}
            {secret.status === "not set" ? (
              <Button
                variant="secondary"
                aria-label={`Set ${secret.name}`}
                onClick={() => setForm({ name: secret.name, kind: secret.kind as Kind, value: "" })}
              >
                Set
              </Button>
            ) : (
              <DangerRowAction verb="Delete" name={secret.name} id={secret.id} mutation={remove} />
            )}
            {editing && editing.id === secret.id && (
              <form
                className="w-full space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
                onSubmit={(e) => {
                  e.preventDefault();
                  setScope.mutate(
                    { id: editing.id, scope: scopeOf(editing.draft) },
                    { onSuccess: () => setEditing(null) },
                  );
                }}
              >
                <SecretScopeFields
                  idPrefix={`scope-${secret.name}`}
                  value={editing.draft}
                  onChange={(draft) => setEditing({ ...editing, draft })}
                />
                <div className="flex gap-2">
                  <Button type="submit" disabled={setScope.isPending}>
                    Save scope
                  </Button>
                  <Button variant="ghost" onClick={() => setEditing(null)}>
                    Cancel
                  </Button>
                </div>
              </form>
            )}
          </li>
        )}
      </RowList>

      <AddForm
        title="Set a secret"
        onSubmit={submit}
        mutation={set}
        submitLabel="Save secret"
        notice={
          warning && (
            <p role="status" data-testid="secret-warning" className="text-sm text-amber-700 dark:text-amber-300">
              {warning}
            </p>
          )
        }
      >
        <Field id="secret-name" label="Name" {...bind("name")} />
        <SelectField id="secret-kind" label="Kind" {...bind("kind")}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k.replace("_", " ")}
            </option>
          ))}
        </SelectField>
        <Field id="secret-value" label="Value" type="password" autoComplete="off" {...bind("value")} />
        <div className="sm:col-span-3">
          <SecretScopeFields idPrefix="secret-scope" value={scope} onChange={setScopeDraft} />
        </div>
      </AddForm>
    </Section>
  );
}
