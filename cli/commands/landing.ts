// The merge queue from the terminal (docs/merge-queue.md): `ralph land <loop>`
// queues a loop's branch for landing, `ralph queue [repo]` shows the queues
// (open entries in landing order, then the history), and `ralph landing`
// answers an entry that needs review (send back, re-queue, drop).
import type { Command } from "commander";
import { createRalphClient } from "../api";
import { loadConfig } from "../config";
import { printJson, table } from "../output";

type Entry = {
  id: string;
  loopId: string;
  status: string;
  position: number | null;
  reason: string | null;
  landedSha: string | null;
  targetBranch: string;
  sourceBranch: string;
};

const short = (id: string) => id.slice(0, 8);
const entryRow = (e: Entry) => [
  e.position === null ? "" : String(e.position),
  short(e.id),
  short(e.loopId),
  e.sourceBranch,
  e.status,
  e.landedSha ? e.landedSha.slice(0, 12) : "",
  (e.reason ?? "").slice(0, 100),
];
const HEAD = ["#", "ENTRY", "LOOP", "BRANCH", "STATUS", "LANDED", "REASON"];

export function landingCommands(program: Command) {
  program
    .command("land")
    .description("queue a loop's ralph/<id> branch to land on its target after its evidence passes again")
    .argument("<loop>", "loop id")
    .option("--onto <branch>", "the branch to land onto (default: the branch the repository's checkout has)")
    .option("--reason <text>", "why, for the audit log")
    .option("--json", "print JSON")
    .action(async (loop: string, opts: { onto?: string; reason?: string; json?: boolean }) => {
      const entry = await createRalphClient(loadConfig()).landing.land.mutate({
        loopId: loop,
        targetBranch: opts.onto,
        reason: opts.reason,
      });
      if (opts.json) return printJson(entry);
      console.log(
        `${entry.sourceBranch} queued to land on ${entry.targetBranch} (${entry.repo}): ${entry.status}, position ${entry.position ?? "-"} (entry ${entry.id})`,
      );
    });
  program
    .command("queue")
    .description("show the merge queues (open entries in landing order, then the history)")
    .argument("[repo]", "only repositories whose path contains this")
    .option("--json", "print JSON")
    .action(async (repo: string | undefined, opts: { json?: boolean }) => {
      const client = createRalphClient(loadConfig());
      const queues = await client.landing.queues.query({ repo });
      const full = await Promise.all(queues.map((q) => client.landing.queue.query({ id: q.id })));
      if (opts.json) return printJson(full);
      if (full.length === 0) return console.log("no merge queue yet: `ralph land <loop>` starts one");
      for (const q of full) {
        console.log(`${q.repo} → ${q.targetBranch} (${q.strategy}${q.busy ? ", landing now" : ""})`);
        const rows = [...q.open, ...q.history.slice(0, 20)].map(entryRow);
        console.log(rows.length ? table([HEAD, ...rows]) : "  empty");
      }
    });
  const landing = program.command("landing").description("answer a landing that needs review");
  const action = (name: string, description: string, run: (id: string, reason?: string) => Promise<string>) =>
    landing
      .command(name)
      .description(description)
      .argument("<entry>", "landing entry id")
      .option("--reason <text>", "why, for the audit log")
      .action(async (id: string, opts: { reason?: string }) => console.log(await run(id, opts.reason)));
  const client = () => createRalphClient(loadConfig());
  action(
    "send-back",
    "send the loop back to work on the target's head, told the conflict or failing tests",
    async (id, reason) => {
      const r = await client().landing.sendBack.mutate({ id, reason });
      return `sent back to work as loop ${r.loopId}; it is queued to land again when it completes`;
    },
  );
  action("requeue", "put it back at the end of its queue (after a fix by hand)", async (id, reason) => {
    const e = await client().landing.requeue.mutate({ id, reason });
    return `re-queued at position ${e.position ?? "-"}`;
  });
  action("drop", "drop it from the queue", async (id, reason) => {
    await client().landing.cancel.mutate({ id, reason });
    return "dropped";
  });
}
