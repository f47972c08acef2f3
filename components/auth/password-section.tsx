"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError } from "./field";
import { Section } from "./section";

export function PasswordSection() {
  const trpc = useTRPC();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => {
        setCurrent("");
        setNext("");
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ currentPassword: current, newPassword: next });
  };
  return (
    <Section title="Your password" description="Changing it signs you out everywhere else.">
      <form onSubmit={submit} className="grid max-w-md gap-3" noValidate>
        <Field
          id="current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <Field
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
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
