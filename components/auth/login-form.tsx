"use client";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { EmailField, errorMessage, FormError, PasswordField } from "./field";
import { useFormFields } from "./use-form-fields";

/** Email + password; on success a full page load to `next`, so everything renders as the new user. */
export function LoginForm({ next }: { next: string }) {
  const trpc = useTRPC();
  const { form, bind } = useFormFields({ email: "", password: "" });
  const signIn = useMutation(trpc.auth.signIn.mutationOptions({ onSuccess: () => window.location.assign(next) }));
  const failed = !!signIn.error;
  const error = failed ? "login-error" : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(form);
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <EmailField invalid={failed} describedBy={error} {...bind("email")} />
      <PasswordField
        id="password"
        label="Password"
        autoComplete="current-password"
        required
        invalid={failed}
        describedBy={error}
        {...bind("password")}
      />
      <FormError id="login-error" message={errorMessage(signIn.error)} />
      <Button type="submit" className="w-full" pending={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
