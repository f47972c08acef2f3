"use client";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, FormError, PasswordField } from "./field";
import { useFormFields } from "./use-form-fields";
import { Section } from "./section";

export function PasswordSection() {
  const trpc = useTRPC();
  const { form, setForm, bind } = useFormFields({ current: "", next: "" });
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => {
        setForm({ current: "", next: "" });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ currentPassword: form.current, newPassword: form.next });
  };
  return (
    <Section title="Your password" description="Changing it signs you out everywhere else.">
      <form onSubmit={submit} className="grid max-w-md gap-3" noValidate>
        <PasswordField
          id="current-password"
          label="Current password"
          autoComplete="current-password"
          {...bind("current")}
        />
        <PasswordField id="new-password" label="New password" autoComplete="new-password" {...bind("next")} />
        <FormError message={errorMessage(change.error)} />
        {change.isSuccess && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            Password changed; {change.data.endedSessions} other session{change.data.endedSessions === 1 ? "" : "s"}{" "}
            ended.
          </p>
        )}
        <div>
          <Button type="submit" disabled={change.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </Section>
  );
}
