// Warns that (part of) a loop runs agent processes without the sandbox.
import { Badge } from "@/components/ui/badge";

export function SandboxOffBadge({ parts }: { parts: string[] | undefined }) {
  if (!parts || parts.length === 0) return null;
  return (
    <span data-testid="sandbox-off-badge">
      <Badge tone="warn" title={`Runs without the sandbox: ${parts.join(", ")} (set by an admin)`}>
        ⚠ sandbox off
      </Badge>
    </span>
  );
}
