"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { EmailField, errorMessage, Field, FormError, PasswordField } from "./field";
import { useFormFields } from "./use-form-fields";

/** Creates the first admin and signs them in. */
export function SetupForm() {
  const trpc = useTRPC();
  const { form, bind } = useFormFields({ name: "", email: "", password: "", confirm: "" });
  const [mismatch, setMismatch] = useState(false);
  // A full page load, so the layout renders with the new session.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  const setup = useMutation(trpc.auth.setup.mutationOptions({ onSuccess: () => window.location.assign("/") }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(form.password !== form.confirm);
    if (form.password === form.confirm) setup.mutate({ name: form.name, email: form.email, password: form.password });
  };
  const failed = mismatch || !!setup.error;
  const errorFor = (field: "email" | "password") =>
    failed && (field === "password" || !mismatch) ? "setup-error" : undefined;
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field id="name" label="Name" autoComplete="name" {...bind("name")} />
      <EmailField invalid={!!errorFor("email")} describedBy={errorFor("email")} {...bind("email")} />
      <PasswordField
        id="password"
        label="Password"
        autoComplete="new-password"
        required
        minLength={12}
        invalid={!!errorFor("password")}
        describedBy={["setup-password-hint", errorFor("password")].filter(Boolean).join(" ")}
        {...bind("password")}
      />
      <PasswordField
        id="confirm"
        label="Repeat password"
        autoComplete="new-password"
        required
        invalid={mismatch}
        describedBy={mismatch ? "setup-error" : undefined}
        {...bind("confirm")}
      />
      <p id="setup-password-hint" className="text-xs text-slate-600 dark:text-slate-400">
        At least 12 characters.
      </p>
      <FormError id="setup-error" message={mismatch ? "The passwords do not match" : errorMessage(setup.error)} />
      <Button type="submit" className="w-full" pending={setup.isPending || setup.isSuccess}>
        Create admin account
      </Button>
    </form>
  );
}
