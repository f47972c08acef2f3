// Settings → System: whether agent processes run sandboxed on this server.
import { Badge } from "@/components/ui/badge";

export interface SandboxStatusProps {
  mode: "on" | "off";
  available: boolean;
  backend: string | null;
  detail: string | null;
}

export function SandboxStatus({ mode, available, backend, detail }: SandboxStatusProps) {
  if (mode === "off") {
    return (
      <span className="flex flex-wrap items-center gap-2" data-testid="sandbox-status">
        <Badge tone="warn">off</Badge>
        <span className="font-sans text-slate-600 dark:text-slate-400">
          RALPH_AGENT_SANDBOX=off: agents run with the server&apos;s view of the machine
        </span>
      </span>
    );
  }
  if (available) {
    return (
      <span className="flex flex-wrap items-center gap-2" data-testid="sandbox-status">
        <Badge tone="good">available</Badge>
        <span className="font-sans text-slate-600 dark:text-slate-400">{backend}; agents run sandboxed</span>
      </span>
    );
  }
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="sandbox-status">
      <Badge tone="bad">unavailable</Badge>
      <span className="font-sans text-slate-600 dark:text-slate-400">
        {detail ?? "unknown reason"}. Command agents will not start until it is installed (bubblewrap, socat, ripgrep)
        or an admin turns the sandbox off.
      </span>
    </span>
  );
}
