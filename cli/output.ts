// How the CLI prints: JSON for scripts (--json), one plain line per event when
// stdout is not a terminal (CI logs), and a redrawn status line under the
// plain lines when it is.
import type { Command } from "commander";

export interface LoopLine {
  id: string;
  name?: string;
  status: string;
  displayStatus?: string;
  stopType?: string | null;
  health: string;
  iteration: number;
  maxIterations: number;
  costUsd: number;
  budgetUsd?: number | null;
  lastScore?: number | null;
  bestScore?: number | null;
}

const score = (value: number | null | undefined) => (value === null || value === undefined ? "–" : value.toFixed(2));
const money = (value: number) => `$${value.toFixed(4)}`;

/**
 * One progress line per iteration, as `watch` and `--wait` print them: n/max,
 * the iteration's outcome and mean score, its cost beside the loop's total
 * (and budget), and the health it left the loop in.
 */
export function progressLine(
  loop: LoopLine,
  iteration?: {
    number: number;
    attempt?: number;
    status: string;
    meanScore: number | null;
    costUsd: number;
    health?: string | null;
  },
  /** The loop's spend after this iteration (runningTotals); the loop's current total otherwise. */
  totalUsd = loop.costUsd,
) {
  if (!iteration) {
    return [
      `${loop.iteration}/${loop.maxIterations}`,
      loop.displayStatus ?? loop.status,
      `score ${score(loop.lastScore)}`,
      `cost ${money(loop.costUsd)}${loop.budgetUsd ? ` of ${money(loop.budgetUsd)}` : ""}`,
      `health ${loop.health}`,
    ].join("  ");
  }
  return [
    `${iteration.number}/${loop.maxIterations}${iteration.attempt && iteration.attempt > 1 ? ` (attempt ${iteration.attempt})` : ""}`,
    iteration.status,
    `score ${score(iteration.meanScore)}`,
    `cost ${money(iteration.costUsd)} (total ${money(totalUsd)}${loop.budgetUsd ? ` of ${money(loop.budgetUsd)}` : ""})`,
    `health ${iteration.health ?? loop.health}`,
  ].join("  ");
}

/**
 * The loop's spend after each of `iterations` (oldest first), printed in one
 * go from one read of the loop: each line showed that read's total (the
 * `total` column stood still across a batch). Those the loop's read already
 * counts (number up to its iteration) end at its total, less what the later
 * ones cost; those stored after the read add their cost to it.
 */
export function runningTotals(
  loop: { iteration: number; costUsd: number },
  iterations: readonly { number: number; costUsd: number }[],
): number[] {
  const counted = iterations.filter((i) => i.number <= loop.iteration);
  let before = loop.costUsd - counted.reduce((s, i) => s + i.costUsd, 0);
  return iterations.map((i) => (before += i.costUsd));
}

export function summaryLine(loop: LoopLine) {
  const stop = loop.stopType && loop.stopType !== "none" ? ` (${loop.stopType})` : "";
  return `${loop.id} ${loop.status}${stop} after ${loop.iteration} iteration${loop.iteration === 1 ? "" : "s"}, best score ${score(loop.bestScore)}, cost ${money(loop.costUsd)}`;
}

export interface Printer {
  /** A line that stays (plain output, or above the status line on a terminal). */
  line(text: string): void;
  /** The live status line: redrawn in place on a terminal, nothing otherwise. */
  status(text: string): void;
  done(): void;
}

export function createPrinter(stream: NodeJS.WriteStream = process.stdout): Printer {
  if (!stream.isTTY) {
    return { line: (text) => void stream.write(`${text}\n`), status: () => undefined, done: () => undefined };
  }
  let shown = false;
  const clear = () => {
    if (shown) stream.write("\r\x1b[2K");
    shown = false;
  };
  return {
    line(text) {
      clear();
      stream.write(`${text}\n`);
    },
    status(text) {
      clear();
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      stream.write(`\x1b[2m${text.slice(0, width)}\x1b[0m`);
      shown = true;
    },
    done: clear,
  };
}

export function printJson(value: unknown) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A fixed-width table for `ls`. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "))
    .join("\n");
}

/**
 * A command that reads one thing by id: under --json it prints what `load` returned (or the part
 * `json` picks), else `print` says it for people.
 */
export function readById<T>(
  command: Command,
  load: (id: string) => Promise<T>,
  print: (value: T, id: string) => void,
  json: (value: T) => unknown = (value) => value,
): Command {
  return command.option("--json", "print JSON").action(async (id: string, opts: { json?: boolean }) => {
    const value = await load(id);
    if (opts.json) printJson(json(value));
    else print(value, id);
  });
}
