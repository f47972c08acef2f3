// Races from the terminal (docs/races.md): `ralph race start` runs several agents on one goal,
// `ralph race show <race>` is the compare view as a table (per contender: status, score, spend,
// cost per verified task), `ralph race pick <race> <loop>` names the winner, `ralph race ls` lists.
import type { Command } from "commander";
import { createRalphClient } from "../api";
import { loadConfig } from "../config";
import { UsageError } from "../errors";
import { printJson, readById, table } from "../output";
import { buildRace, type RaceFlags } from "../race-spec";

const client = () => createRalphClient(loadConfig());
/** Assembled here, validated by the server (races.create answers a bad one with its reason). */
type RaceInput = Parameters<ReturnType<typeof client>["races"]["create"]["mutate"]>[0];
const usd = (v: number | null) => (v === null ? "no verified task" : `$${v.toFixed(4)}`);
const score = (v: number | null) => (v === null ? "–" : v.toFixed(2));
const collect = (value: string, previous: string[] = []) => [...previous, value];
const whole = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--max-iterations must be a whole number, got "${value}"`);
  return n;
};

export function raceCommands(program: Command) {
  const race = program.command("race").description("several agents on one goal, compared by verified cost");
  race
    .command("start")
    .description("start a race: one loop per contender on the same goal and repository")
    .option("-f, --file <race.json|race.yaml>", "a race definition (the shape races.create takes)")
    .option("--goal <text>", "what every contender must achieve")
    .option("--repo <dir>", "the repository every contender works in (each in its own worktree)")
    .option("--check <command>", 'the evidence every contender is graded by, e.g. "npm test"')
    .option(
      "--contender <label=agent>",
      "repeat per contender; agent: claude-code[:model], codex[:model] or cmd:<command line>",
      collect,
    )
    .option("--name <text>", "a name for the race")
    .option("--onto <branch>", "the branch the winner lands onto (default: the branch your checkout has)")
    .option("--policy <policy>", "first_verified (the first to pass lands, the others stop) or operator")
    .option("--max-iterations <n>", "each contender stops after this many iterations", whole)
    .option("--json", "print JSON")
    .action(async (opts: RaceFlags & { json?: boolean }) => {
      const created = await client().races.create.mutate({ ...buildRace(opts), start: true } as RaceInput);
      if (opts.json) return printJson(created);
      console.log(
        `race ${created.id} started: ${created.loopIds.length} contenders (loops ${created.loopIds.join(", ")})`,
      );
    });
  readById(
    race
      .command("show")
      .description("the compare view: each contender's status, score, spend and cost per verified task")
      .argument("<race>", "race id"),
    (id) => client().races.byId.query({ id }),
    (r) => {
      const winner = r.contenders.find((c) => c.id === r.winnerLoopId);
      console.log(`${r.name || r.id}: ${r.goal.split("\n")[0]}`);
      console.log(
        winner
          ? `winner: ${winner.name} (${r.decisionReason ?? ""}, by ${r.decidedBy ?? "?"})`
          : `no winner yet (${r.policy === "first_verified" ? "the first verified wins" : "the operator picks"})`,
      );
      const rows = r.contenders.map((c) => [
        c.id.slice(0, 8),
        c.name,
        c.agent,
        c.status + (c.stopType && c.stopType !== "none" ? ` (${c.stopType})` : ""),
        String(c.iteration),
        score(c.bestScore),
        `$${c.costUsd.toFixed(4)}`,
        c.verified ? "yes" : "no",
        usd(c.costPerVerifiedUsd),
      ]);
      const head = ["LOOP", "NAME", "AGENT", "STATUS", "ITER", "BEST", "SPEND", "VERIFIED", "COST/VERIFIED"];
      console.log(table([head, ...rows]));
      const t = r.costPerVerified;
      console.log(
        `race: $${t.spendUsd.toFixed(4)} spent, ${t.verified} verified, ${usd(t.costPerVerifiedUsd)} per verified task`,
      );
    },
  );
  race
    .command("pick")
    .description("pick the winner (a verified contender): the others stop, the winner goes to the merge queue")
    .argument("<race>", "race id")
    .argument("<loop>", "the winning contender's loop id")
    .option("--reason <text>", "why, for the audit log")
    .option("--json", "print JSON")
    .action(async (id: string, loopId: string, opts: { reason?: string; json?: boolean }) => {
      const d = await client().races.pick.mutate({ id, loopId, reason: opts.reason });
      if (opts.json) return printJson(d);
      console.log(`winner ${d.winnerLoopId}; stopped ${d.stopped.length}; ${d.landing.note}`);
    });
  race
    .command("ls")
    .description("the races, newest first")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const list = await client().races.list.query({ limit: 25 });
      if (opts.json) return printJson(list);
      if (list.length === 0) return console.log("no race yet: `ralph race start` starts one");
      const rows = list.map((r) => [
        r.id.slice(0, 8),
        r.name,
        String(r.contenders),
        r.winnerLoopId ? r.winnerLoopId.slice(0, 8) : "",
        usd(r.costPerVerified.costPerVerifiedUsd),
      ]);
      console.log(table([["RACE", "NAME", "CONTENDERS", "WINNER", "COST/VERIFIED"], ...rows]));
    });
}
