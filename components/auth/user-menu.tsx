"use client";
// Who is signed in, and the sign-out control. Sign-out revokes the session on
// the server, then reloads onto the sign-in page.
import type { RouterOutputs } from "@/components/shared/api-types";
import { useMutation } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc/client";

/** The signed-in user as `auth.me` returns it. */
export type NavUser = NonNullable<RouterOutputs["auth"]["me"]>;

export function UserMenu({ user }: { user: NavUser }) {
  const trpc = useTRPC();
  // A full page load, not router.push: nothing rendered for the old session survives.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  const signOut = useMutation(trpc.auth.signOut.mutationOptions({ onSettled: () => window.location.assign("/login") }));
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="hidden max-w-48 truncate text-slate-600 sm:inline dark:text-slate-400" title={user.email}>
        {user.name || user.email}
      </span>
      <Badge tone={user.role === "admin" ? "info" : user.role === "operator" ? "good" : "neutral"}>{user.role}</Badge>
      <Button variant="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out
      </Button>
    </div>
  );
}
