// The loop commands: start (optionally --wait), ls, status, watch, logs,
// report and share. Reads take --json for scripts.
import { Option, type Command } from "commander";
import { reportMarkdown } from "../../components/report/report-model";
import type { IterationPoint } from "../../lib/charts/types";
import { createRalphClient, type RalphClient } from "../api";
import { loadConfig } from "../config";
import { AGENTS, buildDefinition, type StartFlags } from "../definition";
import { ExitWith, UsageError } from "../errors";
import { EXIT, exitCodeForLoop } from "../exit-codes";
import { followLoop } from "../follow";
import { printJson, progressLine, readById, summaryLine, table } from "../output";

const client = () => createRalphClient(loadConfig());

const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} must be a whole number, got "${value}"`);
  return n;
};
const money = (value: string) => {
  const n = Number(value.replace(/^\$/, ""));
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--budget must be an amount in USD, got "${value}"`);
  return n;
};

/** "7d", "12h", "90m" → hours (share links are in whole hours). */
export function expiryHours(value: string): number {
  const match = /^(\d+)\s*([dhm]?)$/i.exec(value.trim());
  if (!match) throw new UsageError(`--expires takes e.g. 7d, 12h or 90m, got "${value}"`);
  const n = Number(match[1]);
  const unit = (match[2] || "h").toLowerCase();
  const hours = unit === "d" ? n * 24 : unit === "m" ? Math.ceil(n / 60) : n;
  if (hours < 1) throw new UsageError("--expires must be at least an hour");
  return hours;
}

async function waitFor(api: RalphClient, id: string, opts: { noBlock?: boolean; json?: boolean }) {
  const code = await followLoop(api, id, { noBlock: opts.noBlock, json: opts.json });
  if (opts.json) printJson((await api.loops.byId.query({ id })).loop);
  throw new ExitWith(code);
}

export function loopCommands(program: Command) {
  program
    .command("start")
    .description("create and start a loop from a file or from flags")
    .option("-f, --file <loop.json|loop.yaml>", "a loop definition (the New-loop form's JSON, or the same in YAML)")
    .option("--goal <text>", "what the loop must achieve")
    .option("--name <text>", "a name for the dashboard")
    .addOption(new Option("--agent <kind>", "which agent runs each iteration").choices([...AGENTS]))
    .option("--cmd <command>", 'the command for --agent command, e.g. "./agent.sh {prompt}"')
    .option("--workspace <dir>", "the directory the agent works in")
    .option("--check <command>", 'the evidence: the loop completes when this passes, e.g. "npm test"')
    .option("--max-iterations <n>", "stop after this many iterations", int("--max-iterations"))
    .option("--budget <usd>", "stop when the spend reaches this many USD", money)
    .option("--wait", "follow the loop to its end and exit with its outcome")
    .option("--no-block", "with --wait: exit 3 at an approval gate instead of waiting for a decision")
    .option("--json", "print JSON")
    .action(async (opts: StartFlags & { wait?: boolean; block: boolean; json?: boolean }) => {
      const api = client();
      const templates = opts.file ? [] : await api.loops.templates.query();
      const definition = buildDefinition(opts, templates);
      const created = await api.loops.create.mutate({ ...definition, start: true } as never);
      if (!opts.wait) {
        if (opts.json) printJson(created);
        else console.log(created.id);
        return;
      }
      if (!opts.json) console.log(`started ${created.id}`);
      await waitFor(api, created.id, { noBlock: !opts.block, json: opts.json });
    });

  program
    .command("ls")
    .description("list loops, most recently updated first")
    .option("--status <status...>", "only these statuses (running, paused, completed, failed, stopped...)")
    .option("--agent <kind...>", "only these agent kinds (demo, command, llm, webhook)")
    .option("--search <text>", "name or goal contains")
    .option("--limit <n>", "how many (1-100)", int("--limit"), 25)
    .option("--json", "print JSON")
    .action(async (opts: { status?: string[]; agent?: string[]; search?: string; limit: number; json?: boolean }) => {
      const page = await client().loops.list.query({
        status: opts.status,
        agentKind: opts.agent,
        text: opts.search,
        limit: opts.limit,
      });
      if (opts.json) return printJson(page);
      if (page.items.length === 0) return console.log("No loops.");
      const rows = [["ID", "STATUS", "ITER", "SCORE", "COST", "HEALTH", "NAME"]];
      for (const l of page.items)
        rows.push([
          l.id,
          l.displayStatus,
          `${l.iteration}/${l.maxIterations}`,
          l.bestScore === null ? "–" : l.bestScore.toFixed(2),
          `$${l.costUsd.toFixed(4)}`,
          l.health,
          l.name || l.goal.slice(0, 50),
        ]);
      console.log(table(rows));
      if (page.total > page.items.length) console.log(`(${page.items.length} of ${page.total})`);
    });

  readById(
    program.command("status").description("one loop's state").argument("<id>", "loop id"),
    (id) => client().loops.byId.query({ id }),
    (detail, id) => {
      console.log(summaryLine(detail.loop));
      console.log(progressLine(detail.loop));
      if (detail.loop.stopReason) console.log(`reason: ${detail.loop.stopReason}`);
      if (detail.pendingGate) console.log(`awaiting approval: ralph approve ${id} | ralph reject ${id}`);
      if (detail.pendingQuestion) {
        console.log(`the agent asks: ${detail.pendingQuestion.question}`);
        console.log(`answer it: ralph answer ${id} <text> | continue without answering: ralph answer ${id}`);
      }
      const code = exitCodeForLoop(detail.loop, { noBlock: true });
      if (code !== null && code !== EXIT.completed) throw new ExitWith(code);
    },
    (detail) => ({ loop: detail.loop, report: detail.report, pendingGate: detail.pendingGate }),
  );

  program
    .command("watch")
    .description("follow a loop live: one line per iteration, until it ends, pauses or waits for approval")
    .argument("<id>", "loop id")
    .option("--json", "print the final state as JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      const api = client();
      const code = await followLoop(api, id, { fromNow: true, json: opts.json });
      if (opts.json) printJson((await api.loops.byId.query({ id })).loop);
      throw new ExitWith(code);
    });

  program
    .command("logs")
    .description("the agent's output, iteration by iteration (oldest first)")
    .argument("<id>", "loop id")
    .option("--iteration <n>", "only this iteration (its latest attempt)", int("--iteration"))
    .option("--json", "print JSON")
    .action(async (id: string, opts: { iteration?: number; json?: boolean }) => {
      const api = client();
      const items = [];
      if (opts.iteration !== undefined) {
        const page = await api.loops.iterations.query({ id, beforeNumber: opts.iteration + 1, limit: 1 });
        const found = page.items.find((i) => i.number === opts.iteration);
        if (!found) throw new ExitWith(EXIT.failed, `Loop ${id} has no iteration ${opts.iteration}`);
        items.push(found);
      } else {
        for (let before: number | undefined; ;) {
          const page = await api.loops.iterations.query({ id, beforeNumber: before, limit: 100 });
          items.push(...page.items);
          if (page.nextBeforeNumber === undefined) break;
          before = page.nextBeforeNumber;
        }
        items.reverse();
      }
      if (opts.json) return printJson(items);
      for (const i of items) {
        const attempt = i.attempt > 1 ? ` attempt ${i.attempt}` : "";
        const score = i.meanScore === null ? "–" : i.meanScore.toFixed(2);
        console.log(`── iteration ${i.number}${attempt} · ${i.status} · score ${score} · $${i.costUsd.toFixed(4)}`);
        if (i.output) console.log(i.output.replace(/\n$/, ""));
        if (i.outputTruncated) console.log("[output truncated]");
        if (i.error) console.log(`error: ${i.error}`);
      }
    });

  program
    .command("report")
    .description("the end-of-run report, as on the shared page")
    .argument("<id>", "loop id")
    .addOption(new Option("--md", "Markdown (the default)").conflicts("json"))
    .option("--json", "JSON")
    .action(async (id: string, opts: { md?: boolean; json?: boolean }) => {
      const api = client();
      const [detail, last] = await Promise.all([
        api.loops.byId.query({ id }),
        api.loops.iterations.query({ id, limit: 1 }),
      ]);
      const final = last.items[0] ?? null;
      if (opts.json) return printJson({ loop: detail.loop, report: detail.report, series: detail.series, final });
      process.stdout.write(
        reportMarkdown(
          { loop: detail.loop, report: detail.report, series: detail.series as IterationPoint[] },
          final,
          new Date(),
        ),
      );
    });

  program
    .command("share")
    .description("create a read-only share link (redacted) and print its URL")
    .argument("<id>", "loop id")
    .option("--expires <duration>", "e.g. 7d, 12h (default: never)")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { expires?: string; json?: boolean }) => {
      const config = loadConfig();
      const expiresInHours = opts.expires ? expiryHours(opts.expires) : undefined;
      const link = await createRalphClient(config).share.create.mutate({ loopId: id, expiresInHours });
      const url = `${config.url}${link.path}`;
      if (opts.json) return printJson({ ...link, url });
      console.log(url);
      if (link.expiresAt) console.log(`expires ${link.expiresAt.toISOString()}`);
    });
}
