/**
 * Spend spools (issue 32): what the spawn helper (spawn-helper.process.mjs)
 * writes when the server dies with an agent's output it never stored. One file
 * per (loop, iteration, attempt), under the data folder (hidden from every
 * sandboxed agent), holding the tail of stdout of each of that attempt's agent
 * calls and what reading it takes (the preset, the model). Written only when
 * the server died; read, counted and deleted by whoever finds it
 * (server/jobs/spool-recovery.ts).
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AgentTracker, ReportedSpend } from "./deps";
import { commandPresetSpecs } from "./command-preset-specs";
import type { CommandPreset } from "./command.schema";
import { defaultPriceLookup } from "./pricing";
import { priced } from "./spend-reporter";
import type { SpoolTarget } from "./spawner";

export const spoolRoot = (dataDir: string) => join(dataDir, "agent-spool");

const safe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_");

/** The spool file of one attempt of one iteration of a loop. */
export function spoolFile(dataDir: string, loopId: string, iteration: number, attempt: number): string {
  return join(spoolRoot(dataDir), safe(loopId), `${iteration}.${attempt}.json`);
}

/** What a command agent's call tells the helper, so its tail can be read without the loop's config. */
export interface SpoolMeta {
  preset: CommandPreset;
  model?: string;
  maxOutputBytes: number;
  /** The engine's retry within the attempt. */
  call: number;
}

/** The loop's agent call is spooled by the spawn helper if the runtime asks (its tracker names the file). */
export function spoolFor(
  tracker: AgentTracker | undefined,
  request: { loopId: string; iteration: number; attempt: number },
  meta: Omit<SpoolMeta, "call">,
): { spool?: SpoolTarget } {
  const file = tracker?.spoolFile?.(request.loopId, request.iteration);
  return file ? { spool: { file, meta: { ...meta, call: request.attempt } } } : {};
}

export interface SpooledAttempt {
  file: string;
  loopDir: string;
  iteration: number;
  attempt: number;
}

/** Spool files found, per loop folder (`loopDir` is the folder's name); a loop id narrows to its own. */
export function listSpools(dataDir: string, loopId?: string): SpooledAttempt[] {
  const root = spoolRoot(dataDir);
  let dirs: string[];
  try {
    dirs = loopId ? [safe(loopId)] : readdirSync(root);
  } catch {
    return []; // no spool folder: nobody died
  }
  const found: SpooledAttempt[] = [];
  for (const loopDir of dirs) {
    let files: string[];
    try {
      files = readdirSync(join(root, loopDir));
    } catch {
      continue;
    }
    for (const name of files) {
      const m = /^(\d+)\.(\d+)\.json$/.exec(name);
      if (m) found.push({ file: join(root, loopDir, name), loopDir, iteration: Number(m[1]), attempt: Number(m[2]) });
      else if (name.endsWith(".tmp")) removeStaleTmp(join(root, loopDir, name));
    }
  }
  return found;
}

/** A helper killed while writing leaves a .tmp; after a minute nobody is writing it. */
function removeStaleTmp(path: string) {
  try {
    if (Date.now() - statSync(path).mtimeMs > 60_000) rmSync(path, { force: true });
  } catch {
    // gone already
  }
}

interface SpoolRun {
  meta?: Partial<SpoolMeta>;
  cut?: boolean;
  tail?: string;
}

/**
 * The spend the attempt's agent calls reported, summed over its calls, each read with the parser its
 * preset uses live (and priced the same way). Null when the file is unreadable or reports nothing.
 */
export function readSpooledSpend(file: string): ReportedSpend | null {
  let body: { runs?: SpoolRun[] };
  try {
    body = JSON.parse(readFileSync(file, "utf8")) as { runs?: SpoolRun[] };
  } catch {
    return null;
  }
  let total: ReportedSpend | null = null;
  for (const run of body.runs ?? []) {
    const spend = spendOfRun(run);
    if (!spend) continue;
    total = total
      ? {
          input: total.input + spend.input,
          output: total.output + spend.output,
          cache: total.cache + spend.cache,
          costUsd: total.costUsd + spend.costUsd,
        }
      : spend;
  }
  return total;
}

function spendOfRun(run: SpoolRun): ReportedSpend | null {
  const preset = run.meta?.preset;
  if (!preset || !(preset in commandPresetSpecs) || typeof run.tail !== "string") return null;
  const parser = commandPresetSpecs[preset].parser(run.meta?.maxOutputBytes ?? 1 << 20);
  const lines = run.tail.split("\n");
  // A tail cut from a longer output starts mid-line.
  if (run.cut) lines.shift();
  for (const line of lines) {
    try {
      parser.line(line.endsWith("\r") ? line.slice(0, -1) : line, () => undefined);
    } catch {
      // a line the parser chokes on says nothing about spend
    }
  }
  const spend = parser.spend();
  return spend && priced(spend, run.meta?.model, defaultPriceLookup);
}

export function removeSpool(file: string) {
  rmSync(file, { force: true });
}
