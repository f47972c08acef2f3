// What `ralph race start` sends to races.create: a race file (JSON or YAML, the shape the API
// takes), or one built from flags: the goal, the repository, the check, and each contender as an
// agent spec. Pure apart from reading the file; the server validates it.
import { resolve } from "node:path";
import { readLoopFile, splitCommand } from "./definition";
import { UsageError } from "./errors";

type Json = Record<string, unknown>;

export interface RaceFlags {
  file?: string;
  name?: string;
  goal?: string;
  repo?: string;
  check?: string;
  contender?: string[];
  onto?: string;
  policy?: string;
  maxIterations?: number;
}

const PRESETS = ["claude-code", "codex"] as const;

/**
 * One contender from `label=agent`, the agent being `claude-code[:model]`, `codex[:model]` or
 * `cmd:<command line>` (the generic preset: no shell, {prompt} is replaced by the prompt), the
 * same agents the race form offers.
 */
export function parseContender(spec: string): Json {
  const eq = spec.indexOf("=");
  const label = eq > 0 ? spec.slice(0, eq).trim() : "";
  const agent = eq > 0 ? spec.slice(eq + 1).trim() : "";
  if (!label || !agent)
    throw new UsageError(
      `--contender "${spec}": write label=agent (claude-code[:model], codex[:model], cmd:<command>)`,
    );
  if (agent.startsWith("cmd:")) {
    const argv = splitCommand(agent.slice(4));
    if (argv.length === 0) throw new UsageError(`--contender "${spec}": cmd: needs a command line`);
    return { label, agent: { kind: "command", preset: "generic", argv } };
  }
  const colon = agent.indexOf(":");
  const preset = colon < 0 ? agent : agent.slice(0, colon);
  const model = colon < 0 ? "" : agent.slice(colon + 1).trim();
  if (!(PRESETS as readonly string[]).includes(preset))
    throw new UsageError(`--contender "${spec}": the agent is claude-code[:model], codex[:model] or cmd:<command>`);
  return { label, agent: { kind: "command", preset, ...(model ? { model } : {}) } };
}

export function buildRace(flags: RaceFlags, cwd = process.cwd()): Json {
  const race: Json = flags.file ? readLoopFile(flags.file, cwd) : {};
  if (!flags.file) {
    if (!flags.goal) throw new UsageError("--goal is required (or -f race.json)");
    if (!flags.repo) throw new UsageError("--repo is required: the repository every contender works in");
    if ((flags.contender ?? []).length < 2) throw new UsageError("a race needs two --contender or more");
  }
  const base = (race.base ??= {}) as Json;
  if (flags.goal) race.goal = flags.goal;
  if (flags.name) race.name = flags.name;
  if (flags.onto) race.targetBranch = flags.onto;
  if (flags.policy) race.policy = flags.policy;
  if (flags.repo) base.workspace = resolve(cwd, flags.repo);
  const loop = (base.loop ??= {}) as Json;
  const stop = (loop.stop ??= {}) as Json;
  if (flags.maxIterations !== undefined) stop.maxIterations = flags.maxIterations;
  if (flags.check) {
    // The check is the evidence every contender is graded by: a loop completes when it passes.
    base.scorers = [{ kind: "command-check", name: "check", argv: splitCommand(flags.check) }];
    stop.scoreThreshold = 1;
    loop.completion = { evidence: ["score"] };
  }
  if (flags.contender?.length) race.contenders = flags.contender.map(parseContender);
  return race;
}
