"use client";
// Admin: provider keys and webhook secrets. Values are write-only: the list
// shows "set" / "not set" and at most the last 4 characters.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError, INPUT } from "./field";
import { Section } from "./section";

const KINDS = ["provider_key", "webhook_secret", "other"] as const;
type Kind = (typeof KINDS)[number];

export function SecretsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const secrets = useQuery(trpc.secrets.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey() });
  const set = useMutation(trpc.secrets.set.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.secrets.delete.mutationOptions({ onSuccess: refresh }));
  const [form, setForm] = useState({ name: "", kind: "provider_key" as Kind, value: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(form, { onSuccess: () => setForm({ name: "", kind: "provider_key", value: "" }) });
  };

  return (
    <Section
      title="Secrets"
      description='Encrypted at rest. Loops reference them by name, e.g. "apiKeySecret": "OPENAI_API_KEY"; values are never shown again.'
    >
      <FormError message={errorMessage(secrets.error) ?? errorMessage(remove.error)} />
      {secrets.data?.length === 0 && <EmptyState title="No secrets yet" />}
      <ul className="mb-6 divide-y divide-slate-100 text-sm dark:divide-slate-800">
        {secrets.data?.map((secret) => (
          <li key={secret.name} className="flex items-center gap-3 py-2">
            <span className="font-mono">{secret.name}</span>
            <span className="text-slate-500">{secret.kind.replace("_", " ")}</span>
            {secret.status === "set" ? <Badge tone="good">set</Badge> : <Badge>not set</Badge>}
            {secret.last4 && <span className="font-mono text-slate-500">…{secret.last4}</span>}
            <span className="ml-auto" />
            {secret.status === "not set" ? (
              <Button variant="secondary" aria-label={`Set ${secret.name}`} onClick={() => setForm({ name: secret.name, kind: secret.kind as Kind, value: "" })}>
                Set
              </Button>
            ) : (
              <Button variant="danger" aria-label={`Delete ${secret.name}`} disabled={remove.isPending} onClick={() => secret.id && remove.mutate({ id: secret.id })}>
                Delete
              </Button>
            )}
          </li>
        ))}
      </ul>

      <h3 className="mb-2 text-sm font-medium">Set a secret</h3>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-3" noValidate>
        <Field id="secret-name" label="Name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        <div className="space-y-1">
          <label htmlFor="secret-kind" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Kind
          </label>
          <select id="secret-kind" className={INPUT} value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as Kind })}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k.replace("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <Field id="secret-value" label="Value" type="password" autoComplete="off" value={form.value} onChange={(e) => setForm({ ...form, value: e.target.value })} />
        <div className="sm:col-span-3">
          <FormError message={errorMessage(set.error)} />
          <Button type="submit" className="mt-2" disabled={set.isPending}>
            Save secret
          </Button>
        </div>
      </form>
    </Section>
  );
}
