"use client";
// Admin: create accounts with a role, change roles, disable and enable.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRefresh } from "@/components/shared/use-refresh";
import type { FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError, INPUT, PasswordField, SelectField } from "./field";
import { useFormFields } from "./use-form-fields";
import { AddForm, Section } from "./section";

const ROLES = ["viewer", "operator", "admin"] as const;
type Role = (typeof ROLES)[number];

export function UsersSection({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const users = useQuery(trpc.users.list.queryOptions());
  const refresh = useRefresh(trpc.users.list.queryKey());
  const update = useMutation(trpc.users.update.mutationOptions({ onSuccess: refresh }));
  const create = useMutation(trpc.users.create.mutationOptions({ onSuccess: refresh }));
  const { form, setForm, bind } = useFormFields({ email: "", name: "", password: "", role: "viewer" as Role });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(form, { onSuccess: () => setForm({ email: "", name: "", password: "", role: "viewer" }) });
  };

  return (
    <Section
      title="Users"
      description="Viewers read loops and reports; operators also create and control loops; admins also manage users and secrets."
    >
      <FormError message={errorMessage(users.error) ?? errorMessage(update.error)} />
      <table className="mb-6 w-full text-left text-sm">
        <thead className="text-slate-600 dark:text-slate-400">
          <tr>
            <th className="py-2 font-medium">Email</th>
            <th className="py-2 font-medium">Role</th>
            <th className="hidden py-2 font-medium sm:table-cell">State</th>
            <th className="py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.data?.map((user) => (
            <tr key={user.id} className="border-t border-slate-100 dark:border-slate-800">
              {/* At phone width the email wraps and the state sits under it, so the role select keeps its width. */}
              <td className="py-2 pr-2 break-all">
                {user.email}
                {user.name && <span className="ml-2 text-slate-600 dark:text-slate-400">{user.name}</span>}
                <span className="mt-1 block sm:hidden">
                  {user.disabledAt ? <Badge tone="bad">disabled</Badge> : <Badge tone="good">active</Badge>}
                </span>
              </td>
              <td className="py-2 pr-2">
                <select
                  aria-label={`Role of ${user.email}`}
                  className={`${INPUT} w-28 min-w-[6.5rem] sm:w-32`}
                  value={user.role}
                  disabled={user.id === selfId || update.isPending}
                  onChange={(e) => update.mutate({ id: user.id, role: e.target.value as Role })}
                >
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </td>
              <td className="hidden py-2 sm:table-cell">
                {user.disabledAt ? <Badge tone="bad">disabled</Badge> : <Badge tone="good">active</Badge>}
              </td>
              <td className="py-2 text-right">
                {user.id !== selfId && (
                  <Button
                    variant="secondary"
                    aria-label={`${user.disabledAt ? "Enable" : "Disable"} ${user.email}`}
                    disabled={update.isPending}
                    onClick={() => update.mutate({ id: user.id, disabled: !user.disabledAt })}
                  >
                    {user.disabledAt ? "Enable" : "Disable"}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <AddForm title="Add a user" onSubmit={submit} columns={2} mutation={create} submitLabel="Add user">
        <Field id="new-user-email" label="Email" type="email" {...bind("email")} />
        <Field id="new-user-name" label="Name" {...bind("name")} />
        <PasswordField
          id="new-user-password"
          label="Initial password"
          autoComplete="new-password"
          {...bind("password")}
        />
        <SelectField id="new-user-role" label="Role" {...bind("role")}>
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </SelectField>
      </AddForm>
    </Section>
  );
}
