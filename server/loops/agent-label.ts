// A short name for the agent a stored definition runs, by which cost per verified task is grouped
// "per agent": the kind, then what tells two agents of that kind apart (the CLI preset or command,
// the model). Two contenders of one race that differ only by prompt share a label.
type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

export function agentLabel(agent: unknown): string {
  const a = obj(agent);
  const kind = str(a.kind) ?? "unknown";
  switch (kind) {
    case "command": {
      const argv = Array.isArray(a.argv) ? a.argv : [];
      const preset = str(a.preset) && a.preset !== "generic" ? str(a.preset) : undefined;
      const cli = preset ?? str(argv[0])?.split("/").pop() ?? "command";
      const model = str(a.model) ?? modelFlag(a.extraArgs);
      return model ? `${cli} · ${model}` : cli;
    }
    case "llm": {
      const m = obj(a.model);
      return `${str(m.provider) ?? "llm"} · ${str(m.model) ?? "?"}`;
    }
    case "webhook": {
      try {
        return `webhook · ${new URL(str(a.url) ?? "").host}`;
      } catch {
        return "webhook";
      }
    }
    default:
      return kind;
  }
}

/** `--model x` or `--model=x` among a preset's extra arguments. */
function modelFlag(args: unknown): string | undefined {
  if (!Array.isArray(args)) return undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--model" || arg === "-m") return str(args[i + 1]);
    if (typeof arg === "string" && arg.startsWith("--model=")) return str(arg.slice(8));
  }
  return undefined;
}

export const agentLabelOfConfig = (config: unknown): string => agentLabel(obj(config).agent);
