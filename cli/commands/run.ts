// ralph run: one loop to its end in this process, no server. The only command
// that carries the server's runtime (loaded on demand, so the others stay a
// thin tRPC client); exit codes as for --wait.
import type { Command } from "commander";
import { ZodError } from "zod";
import { buildDefinition, type StartFlags } from "../definition";
import { ExitWith, UsageError } from "../errors";
import { exitCodeForLoop } from "../exit-codes";
import { createPrinter, printJson, progressLine, runningTotals, summaryLine } from "../output";

export function runCommand(program: Command) {
  program
    .command("run")
    .description("run one loop to its end here, without a server (embedded SQLite, or DATABASE_URL)")
    .requiredOption("-f, --file <loop.json|loop.yaml>", "the loop definition")
    .option("--goal <text>", "override the file's goal")
    .option("--workspace <dir>", "the directory the agent works in")
    .option("--check <command>", 'the evidence: the loop completes when this passes, e.g. "npm test"')
    .option("--max-iterations <n>", "stop after this many iterations", (v) => Number(v))
    .option("--budget <usd>", "stop when the spend reaches this many USD", (v) => Number(v))
    .option("--no-block", "exit 3 at an approval gate instead of waiting for its deadline")
    .option("--json", "print the final state as JSON")
    .action(async (opts: StartFlags & { block: boolean; json?: boolean }) => {
      for (const [flag, value] of [
        ["--max-iterations", opts.maxIterations],
        ["--budget", opts.budget],
      ] as const)
        if (value !== undefined && !(Number.isFinite(value) && value > 0))
          throw new UsageError(`${flag} must be a positive number`);
      const definition = buildDefinition(opts, []);
      const printer = createPrinter(opts.json ? process.stderr : process.stdout);
      const { runHeadless } = await import("../../server/jobs/headless-run");
      const codeFor = (loop: { status: string; stopType: string | null }) =>
        exitCodeForLoop(loop, { noBlock: !opts.block });
      let final;
      try {
        final = await runHeadless(definition, {
          onStart: (loop, database) => printer.line(`${loop.id}: running here on ${database}`),
          onIterations: (loop, iterations) => {
            const totals = runningTotals(loop, iterations);
            iterations.forEach((i, n) => printer.line(progressLine(loop, i, totals[n])));
          },
          isDone: (loop) => codeFor(loop) !== null,
        });
      } catch (error) {
        if (error instanceof ZodError) {
          const issue = error.issues[0];
          throw new UsageError(`${opts.file}: ${issue?.path.join(".") || "definition"}: ${issue?.message}`);
        }
        if ((error as { code?: string }).code === "INVALID_INPUT") throw new UsageError((error as Error).message);
        throw error;
      }
      printer.line(summaryLine(final));
      if (final.status === "paused") printer.line(`paused: resume it from the dashboard or ralph resume ${final.id}`);
      if (opts.json) printJson(final);
      throw new ExitWith(codeFor(final)!);
    });
}
