// `ralph watch` and `ralph start --wait`: follow one loop over the live event
// stream (server-sent events; the client resumes from the last event id after
// a dropped connection) until it reaches a state the caller can act on.
import { EXIT, exitCodeForLoop, type ExitCode } from "./exit-codes";
import type { RalphClient } from "./api";
import { isNetworkFailure } from "./errors";
import { createPrinter, progressLine, runningTotals, summaryLine, type LoopLine } from "./output";

/** Events after which the loop's state is read again. */
const REFRESH_ON = new Set([
  "iteration_started",
  "iteration_finished",
  "status_changed",
  "halted",
  "approval_requested",
  "approval_decided",
  "health_changed",
  "control_applied",
  "control_rejected",
]);

/** The stream pings every 5 s; a read this often is a backstop, never the pace of the output. */
const BACKSTOP_MS = 10_000;
/** A dropped connection is retried (the stream resumes by itself) for this long before giving up with exit 69. */
const OUTAGE_MS = 60_000;
const RETRY_MS = 1_000;

export interface FollowOptions {
  /** Stop at an approval gate with exit 3 instead of waiting for someone to decide. */
  noBlock?: boolean;
  /** Print only iterations stored from now on (watch), not the loop's history. */
  fromNow?: boolean;
  json?: boolean;
}

type Iteration = Awaited<ReturnType<RalphClient["loops"]["iterations"]["query"]>>["items"][number];

/** Iterations stored after `after` (number, attempt), oldest first: a short page, more only when all are new. */
async function newIterations(client: RalphClient, id: string, after: { number: number; attempt: number }) {
  const isNew = (i: Iteration) => i.number > after.number || (i.number === after.number && i.attempt > after.attempt);
  const found: Iteration[] = [];
  for (let before: number | undefined; ;) {
    const page = await client.loops.iterations.query({ id, beforeNumber: before, limit: 10 });
    const fresh = page.items.filter(isNew);
    found.push(...fresh);
    if (fresh.length < page.items.length || page.nextBeforeNumber === undefined) break;
    before = page.nextBeforeNumber;
  }
  return found.reverse();
}

export async function followLoop(client: RalphClient, id: string, options: FollowOptions = {}): Promise<ExitCode> {
  const printer = createPrinter(options.json ? process.stderr : process.stdout);
  const read = async (): Promise<LoopLine> => (await client.loops.byId.query({ id })).loop;
  // A paused loop ends the follow with 130, for watch too (docs/cli.md's exit codes; watch used to wait forever).
  const verdict = (loop: LoopLine): ExitCode | null => exitCodeForLoop(loop, { noBlock: options.noBlock });

  let loop = await read();
  printer.line(`${loop.id}${loop.name ? ` "${loop.name}"` : ""}: ${loop.displayStatus ?? loop.status}`);
  // `watch` starts from now; `start --wait` (a new loop) from its first iteration.
  let last = { number: 0, attempt: 0 };
  if (options.fromNow) {
    const newest = (await client.loops.iterations.query({ id, limit: 1 })).items[0];
    if (newest) last = { number: newest.number, attempt: newest.attempt };
  }
  const catchUp = async () => {
    const fresh = await newIterations(client, id, last);
    const totals = runningTotals(loop, fresh);
    fresh.forEach((i, n) => {
      printer.line(progressLine(loop, i, totals[n]));
      last = { number: i.number, attempt: i.attempt };
    });
  };
  await catchUp();
  const early = verdict(loop);
  if (early !== null) return finish(loop, early);

  return new Promise<ExitCode>((resolve, reject) => {
    let settled = false;
    let refreshing: Promise<void> = Promise.resolve();
    let outageSince: number | null = null;
    const stop = (result: { code?: ExitCode; error?: unknown }) => {
      if (settled) return;
      settled = true;
      clearInterval(backstop);
      process.off("SIGINT", interrupt);
      subscription.unsubscribe();
      if (result.error) {
        printer.done();
        reject(result.error);
      } else resolve(finish(loop, result.code!));
    };
    // Reads are chained so lines come out in order and a slow read never overtakes a newer one.
    // The loop is read before its iterations, so a final state always comes with every iteration that led to it.
    const refresh = () => {
      refreshing = refreshing.then(async () => {
        if (settled) return;
        try {
          loop = await read();
          await catchUp();
          outageSince = null;
        } catch (error) {
          // A proxy restart or a dropped socket is not the end of a run: try again shortly.
          outageSince ??= Date.now();
          if (isNetworkFailure(error) && Date.now() - outageSince < OUTAGE_MS) setTimeout(refresh, RETRY_MS);
          else stop({ error });
          return;
        }
        printer.status(`${loop.displayStatus ?? loop.status} · iteration ${loop.iteration}/${loop.maxIterations}`);
        const code = verdict(loop);
        if (code !== null) stop({ code });
      });
    };
    const subscription = client.events.stream.subscribe(
      { loopId: id },
      {
        // Anything that happened between the first read and the stream starting is caught here.
        onStarted: () => refresh(),
        onData: (tracked) => {
          const event = (tracked as { data?: { type: string } }).data;
          if (event && REFRESH_ON.has(event.type)) refresh();
        },
        onError: (error) => stop({ error }),
      },
    );
    const backstop = setInterval(() => refresh(), BACKSTOP_MS);
    const interrupt = () => {
      // Ctrl-C stops following; the loop keeps running on the server.
      printer.done();
      process.stderr.write(`\nStopped following ${id}; the loop goes on (ralph status ${id}).\n`);
      process.exit(EXIT.interrupted);
    };
    process.once("SIGINT", interrupt);
  });

  function finish(final: LoopLine, code: ExitCode): ExitCode {
    printer.done();
    printer.line(summaryLine(final));
    if (code === EXIT.attention)
      printer.line(`awaiting approval: ralph approve ${final.id} | ralph reject ${final.id}`);
    if (code === EXIT.interrupted && final.status === "paused") printer.line(`paused: ralph resume ${final.id}`);
    return code;
  }
}
