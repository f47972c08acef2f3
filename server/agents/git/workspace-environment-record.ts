/**
 * The record a loop's worktree environment leaves when it is ready (what
 * .worktreeinclude brought in, the submodules, the setup run), in the
 * worktrees folder under the data directory, out of the agent's reach. Its
 * own module: the grader reads it too, without the preparation's imports.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shortLoopId } from "./git-workspace";

export interface SetupRun {
  argv: string[];
  exitCode: number | null;
  durationMs: number;
  /** The setup's whole output (capped), outside the workspace. */
  logPath: string;
}

export interface EnvironmentRecord {
  status: "ready";
  /** Paths brought in from .worktreeinclude. */
  included: string[];
  /**
   * The user's checkout they were brought from (its top folder). The grading trees copy them from
   * there, not from the loop's worktree, where the agent could have changed them (records written
   * before this field: from the worktree).
   */
  includedFrom?: string;
  /**
   * Git-ignored paths the setup command produced (node_modules), copied right after it ran, before the
   * agent did, into `setupOutputsPath`: the grading trees take them from there, not from the loop's
   * worktree, where the agent could have patched them (records written before this field: linked).
   */
  setupOutputs?: string[];
  /** Submodules initialised from the user's checkout. */
  submodules?: string[];
  setup: SetupRun | null;
  at: string;
}

export const environmentRecordPath = (stateDir: string, loopId: string) =>
  join(stateDir, `${shortLoopId(loopId)}.environment.json`);

/** The loop-private copy of what the setup command installed, under the data folder (hidden from the agent). */
export const setupOutputsPath = (stateDir: string, loopId: string) =>
  join(stateDir, ".setup-outputs", shortLoopId(loopId));

export function readEnvironmentRecord(stateDir: string, loopId: string): EnvironmentRecord | null {
  try {
    return JSON.parse(readFileSync(environmentRecordPath(stateDir, loopId), "utf8")) as EnvironmentRecord;
  } catch {
    return null;
  }
}
