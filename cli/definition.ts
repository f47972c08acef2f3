// What `ralph start` sends to loops.create: a loop file (JSON or YAML, the
// same shape as the New-loop form's JSON), or a definition built from flags
// on top of one of the server's templates. The server validates it; this
// only assembles it. Pure apart from reading the file.
import { readFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { UsageError } from "./errors";

export const AGENTS = ["demo", "claude-code", "codex", "command"] as const;
export type AgentChoice = (typeof AGENTS)[number];

/** The server template each agent starts from (`loops.templates`). */
const TEMPLATE_FOR: Record<Exclude<AgentChoice, "command">, string> = {
  demo: "demo",
  "claude-code": "claude-code-tests",
  codex: "codex-tests",
};

export interface StartFlags {
  file?: string;
  goal?: string;
  name?: string;
  agent?: string;
  /** The command for `--agent command` (no shell; {prompt} is replaced by the prompt). */
  cmd?: string;
  workspace?: string;
  check?: string;
  maxIterations?: number;
  budget?: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Splits a command line into argv the way a POSIX shell would for plain words and quotes (no expansion). */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && (line[i + 1] === '"' || line[i + 1] === "\\")) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`unclosed ${quote} in "${line}"`);
  if (inWord) out.push(word);
  return out;
}

export function readLoopFile(path: string, cwd = process.cwd()): Json {
  const full = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = [".yaml", ".yml"].includes(extname(full).toLowerCase()) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid ${extname(full).slice(1) || "JSON"}: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new UsageError(`${path} must hold one loop definition (an object with goal and agent)`);
  return parsed;
}

/**
 * The definition to create: the file's (or the agent's template's) with the
 * flags laid on top. `templates` is what the server offers.
 */
export function buildDefinition(
  flags: StartFlags,
  templates: readonly { id: string; definition: unknown }[],
  cwd = process.cwd(),
): Json {
  let definition: Json;
  if (flags.file) {
    definition = readLoopFile(flags.file, cwd);
  } else {
    const agent = (flags.agent ?? "demo") as AgentChoice;
    if (!AGENTS.includes(agent)) throw new UsageError(`--agent must be one of ${AGENTS.join(", ")}`);
    if (!flags.goal && agent !== "demo") throw new UsageError("--goal is required (or -f loop.json)");
    if (agent === "command") {
      if (!flags.cmd) throw new UsageError('--agent command needs --cmd "<command> {prompt}"');
      definition = {
        goal: flags.goal,
        agent: { kind: "command", preset: "generic", argv: splitCommand(flags.cmd) },
        loop: { stop: { maxIterations: 10 } },
      };
    } else {
      const template = templates.find((t) => t.id === TEMPLATE_FOR[agent]);
      if (!template || !isObject(template.definition))
        throw new UsageError(`the server offers no "${TEMPLATE_FOR[agent]}" template for --agent ${agent}`);
      definition = structuredClone(template.definition);
    }
  }
  if (flags.cmd && flags.file) throw new UsageError("--cmd goes with --agent command, not with -f");
  if (flags.goal) definition.goal = flags.goal;
  if (flags.name) definition.name = flags.name;
  if (flags.workspace) definition.workspace = resolve(cwd, flags.workspace);
  const loop = isObject(definition.loop) ? definition.loop : (definition.loop = {});
  if (flags.maxIterations !== undefined) {
    const stop = isObject(loop.stop) ? loop.stop : (loop.stop = {});
    stop.maxIterations = flags.maxIterations;
  }
  if (flags.budget !== undefined) {
    const budget = isObject(loop.budget) ? loop.budget : (loop.budget = {});
    budget.maxCostUsd = flags.budget;
  }
  if (flags.check) {
    // The check is the evidence: the loop completes when it passes.
    definition.scorers = [{ kind: "command-check", name: "check", argv: splitCommand(flags.check) }];
    const stop = isObject(loop.stop) ? loop.stop : (loop.stop = {});
    stop.scoreThreshold = 1;
    loop.completion = { evidence: ["score"], mode: "any" };
  }
  return definition;
}
