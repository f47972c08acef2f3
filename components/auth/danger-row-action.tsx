"use client";
// A destructive action on one row of a settings list (delete a channel or a secret, revoke a
// token): named with its row for screen readers, and off while the call runs.
import { Button } from "@/components/ui/button";

export function DangerRowAction({
  verb,
  name,
  id,
  mutation,
}: {
  verb: string;
  name: string;
  /** The row's id; null for a row the server has not stored (nothing to act on). */
  id: string | null;
  mutation: { isPending: boolean; mutate: (input: { id: string }) => void };
}) {
  return (
    <Button
      variant="danger"
      aria-label={`${verb} ${name}`}
      disabled={mutation.isPending}
      onClick={() => id && mutation.mutate({ id })}
    >
      {verb}
    </Button>
  );
}
