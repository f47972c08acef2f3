/**
 * Which parts of a stored loop run processes without the sandbox (turned off
 * for the loop by an admin, or for the whole server): shown as a warning
 * badge on the loop. Kinds that run no process (llm, webhook, demo) are not
 * listed: they have nothing to sandbox.
 */
type Stored = {
  agent?: { kind?: unknown; sandbox?: unknown };
  scorers?: { kind?: unknown; name?: unknown; sandbox?: unknown }[];
  verifier?: { kind?: unknown; sandbox?: unknown };
};

export function unsandboxedParts(config: unknown, serverMode: "on" | "off"): string[] {
  const stored = (config ?? {}) as Stored;
  const off = (part: { sandbox?: unknown } | undefined) => serverMode === "off" || part?.sandbox === "off";
  const parts: string[] = [];
  if (stored.agent?.kind === "command" && off(stored.agent)) parts.push("agent");
  for (const scorer of Array.isArray(stored.scorers) ? stored.scorers : []) {
    if (scorer?.kind === "command-check" && off(scorer)) parts.push(`check ${String(scorer.name ?? "")}`.trim());
  }
  if (stored.verifier?.kind === "command" && off(stored.verifier)) parts.push("verifier");
  return parts;
}
