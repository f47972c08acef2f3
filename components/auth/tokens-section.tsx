"use client";
// Personal API tokens for the `ralph` CLI and CI. A new token's value is
// shown here once, right after it is made; the list only has its prefix.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError, INPUT } from "./field";
import { Section } from "./section";

type Role = "viewer" | "operator" | "admin";
const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

export function TokensSection({ role }: { role: Role }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.tokens.list.queryOptions({ all: false }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const [form, setForm] = useState({ name: "", role, days: "90" });
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: form.name, role: form.role, expiresInDays: form.days ? Number(form.days) : null },
      {
        onSuccess: (made) => {
          setShown({ name: made.name, token: made.token });
          setForm({ name: "", role, days: "90" });
        },
      },
    );
  };

  return (
    <Section
      title="API tokens"
      description="For the ralph CLI and CI: sent as Authorization: Bearer. A token acts as you, with at most your role. Its value is shown once."
    >
      <FormError message={errorMessage(tokens.error) ?? errorMessage(revoke.error)} />
      {shown && (
        <div
          role="status"
          className="mb-4 space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950"
        >
          <p>
            Token <strong>{shown.name}</strong> created. Copy it now: it will not be shown again.
          </p>
          <input
            readOnly
            aria-label="New token value"
            className={`${INPUT} font-mono`}
            value={shown.token}
            onFocus={(e) => e.currentTarget.select()}
          />
          <p className="font-mono text-xs">
            npx ralph login --url {typeof window === "undefined" ? "" : window.location.origin} --token {"<paste>"}
          </p>
          <Button variant="ghost" onClick={() => setShown(null)}>
            Done
          </Button>
        </div>
      )}
      {tokens.data?.length === 0 && <EmptyState title="No tokens yet" />}
      <ul className="mb-6 divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label="API tokens">
        {tokens.data?.map((token) => (
          <li key={token.id} className="flex flex-wrap items-center gap-3 py-2">
            <span className="font-medium">{token.name}</span>
            <span className="font-mono text-slate-600 dark:text-slate-400">{token.prefix}…</span>
            <Badge tone={token.role === "viewer" ? "neutral" : "info"}>{token.role}</Badge>
            {token.active ? (
              <Badge tone="good">active</Badge>
            ) : (
              <Badge tone="bad">{token.revokedAt ? "revoked" : "expired"}</Badge>
            )}
            <span className="text-xs text-slate-600 dark:text-slate-400">
              last used {token.lastUsedAt ? <LocalTime date={token.lastUsedAt} /> : "never"}
              {token.expiresAt && (
                <>
                  {" "}
                  · expires <LocalTime date={token.expiresAt} />
                </>
              )}
            </span>
            <span className="ml-auto" />
            {token.active && (
              <Button
                variant="danger"
                aria-label={`Revoke ${token.name}`}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ id: token.id })}
              >
                Revoke
              </Button>
            )}
          </li>
        ))}
      </ul>

      <h3 className="mb-2 text-sm font-medium">Create a token</h3>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-3" noValidate>
        <Field
          id="token-name"
          label="Name"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
        />
        <div className="space-y-1">
          <label htmlFor="token-role" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Role
          </label>
          <select
            id="token-role"
            className={INPUT}
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
          >
            {(["viewer", "operator", "admin"] as const)
              .filter((r) => RANK[r] <= RANK[role])
              .map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
          </select>
        </div>
        <Field
          id="token-days"
          label="Expires after (days, empty: never)"
          inputMode="numeric"
          value={form.days}
          onChange={(e) => setForm({ ...form, days: e.target.value.replace(/\D/g, "") })}
        />
        <div className="sm:col-span-3">
          <FormError message={errorMessage(create.error)} />
          <Button type="submit" className="mt-2" disabled={create.isPending}>
            Create token
          </Button>
        </div>
      </form>
    </Section>
  );
}
