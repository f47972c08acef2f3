"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError } from "./field";

/** Email + password; on success a full page load to `next`, so everything renders as the new user. */
export function LoginForm({ next }: { next: string }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation(trpc.auth.signIn.mutationOptions({ onSuccess: () => window.location.assign(next) }));
  const failed = !!signIn.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field
        id="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
        invalid={failed}
        describedBy={failed ? "login-error" : undefined}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        invalid={failed}
        describedBy={failed ? "login-error" : undefined}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError id="login-error" message={errorMessage(signIn.error)} />
      <Button type="submit" className="w-full" pending={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
