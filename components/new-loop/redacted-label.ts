// What a redacted field of a cloned definition is, in words an operator
// recognises ("the agent's secret ANTHROPIC_API_KEY"), not its raw path
// ("agent.secrets.0.secret"). Pure; unknown shapes fall back to the path.

const PARTS: Record<string, string> = {
  agent: "the agent",
  fallbackAgent: "the fallback agent",
  verifier: "the verifier",
  reflector: "the reflector",
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The thing at `path` (dot-separated, array indexes as numbers) of `definition`. */
function at(definition: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (isObj(v) ? v[key] : undefined), definition);
}

export function redactedFieldLabel(path: string, definition: unknown): string {
  const keys = path.split(".");
  const last = keys.at(-1)!;
  // The owner: "the agent", or a scorer by its name.
  const ownerOf = (head: string[]) => {
    if (head[0] === "scorers" && head[1] !== undefined) {
      const name = at(definition, ["scorers", head[1], "name"]);
      return typeof name === "string" ? `the scorer "${name}"` : `scorer ${Number(head[1]) + 1}`;
    }
    return PARTS[head[0] ?? ""] ?? null;
  };
  const secrets = keys.indexOf("secrets");
  if (secrets > 0 && keys[secrets + 1] !== undefined) {
    const owner = ownerOf(keys.slice(0, secrets));
    const name = at(definition, [...keys.slice(0, secrets + 2), "name"]);
    const what = typeof name === "string" && name ? `secret ${name}` : `secret ${Number(keys[secrets + 1]) + 1}`;
    if (owner) return `${owner}'s ${what}`;
  }
  for (const [group, noun] of [
    ["env", "environment variable"],
    ["headers", "header"],
  ] as const) {
    const i = keys.indexOf(group);
    if (i > 0 && i === keys.length - 2) {
      const owner = ownerOf(keys.slice(0, i));
      if (owner) return `${owner}'s ${noun} ${last}`;
    }
  }
  const head = keys.slice(0, -1);
  const owner = ownerOf(head);
  const direct = head.length === 1 || (head[0] === "scorers" && head.length === 2);
  return owner && direct ? `${owner}'s ${last}` : path;
}
