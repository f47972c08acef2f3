import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button";

export const metadata = { title: "New loop" };

export default function NewLoopPage() {
  return (
    <>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">New loop</h1>
      <EmptyState title="Starting loops is not available in this build yet" action={<ButtonLink href="/" variant="secondary">Back to loops</ButtonLink>}>
        The loop runtime and the agent adapters are still being built. This page will hold the loop form: goal, agent,
        scorers, verifier, limits, budget and approval gates.
      </EmptyState>
    </>
  );
}
