"use client";
// Personal API tokens for the `ralph` CLI and CI. A new token's value is
// shown here once, right after it is made; the list only has its prefix.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRefresh } from "@/components/shared/use-refresh";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { DangerRowAction } from "./danger-row-action";
import { LocalTime } from "@/components/ui/local-time";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError, SelectField } from "./field";
import { useFormFields } from "./use-form-fields";
import { AddForm, Section, ShownOnce, RowList } from "./section";

type Role = "viewer" | "operator" | "admin";
const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

export function TokensSection({ role }: { role: Role }) {
  const trpc = useTRPC();
  const tokens = useQuery(trpc.tokens.list.queryOptions({ all: false }));
  const refresh = useRefresh(trpc.tokens.list.queryKey());
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const { form, setForm, bind } = useFormFields({ name: "", role, days: "90" });
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
        <ShownOnce
          label="New token value"
          value={shown.token}
          onDone={() => setShown(null)}
          after={
            <p className="font-mono text-xs">
              npx ralph login --url {typeof window === "undefined" ? "" : window.location.origin} --token {"<paste>"}
            </p>
          }
        >
          <p>
            Token <strong>{shown.name}</strong> created. Copy it now: it will not be shown again.
          </p>
        </ShownOnce>
      )}
      <RowList label="API tokens" items={tokens.data} empty="No tokens yet">
        {(token) => (
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
            {token.active && <DangerRowAction verb="Revoke" name={token.name} id={token.id} mutation={revoke} />}
          </li>
        )}
      </RowList>

      <AddForm title="Create a token" onSubmit={submit} mutation={create} submitLabel="Create token">
        <Field id="token-name" label="Name" {...bind("name")} />
        <SelectField id="token-role" label="Role" {...bind("role")}>
          {(["viewer", "operator", "admin"] as const)
            .filter((r) => RANK[r] <= RANK[role])
            .map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
        </SelectField>
        <Field
          id="token-days"
          label="Expires after (days, empty: never)"
          inputMode="numeric"
          value={form.days}
          onChange={(e) => setForm({ ...form, days: e.target.value.replace(/\D/g, "") })}
        />
      </AddForm>
    </Section>
  );
}
