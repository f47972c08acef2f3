// The loop page's view of a loop's worktree environment (.worktreeinclude,
// submodules, setup command): read from the record and the setup log the
// runtime keeps under the data directory (agents/git/workspace-environment.ts).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readEnvironmentRecord, setupLogPath } from "../agents/git/workspace-environment";
import { scrubSecrets } from "../agents/redact";
import type { Database } from "../db/client";
import { loopById } from "../db/loops.repo";
import { getEnv } from "../env";
import { notFound } from "../errors";
import { setupOf } from "./loop-environment";
import { loopSecretValues } from "./ports-factory";

/** The most of the setup log the loop page shows (its end: where the error is). */
const LOG_TAIL_CHARS = 6_000;

/**
 * What the loop page shows of the worktree's environment: what was copied in,
 * the submodules, and the setup command's status, time and the end of its log.
 */
export async function loopEnvironmentOf(db: Database, loopId: string) {
  const loop = await loopById(db.prisma, loopId);
  if (!loop) throw notFound("Loop", loopId);
  const stateDir = resolve(getEnv().RALPH_DATA_DIR, "worktrees");
  const record = readEnvironmentRecord(stateDir, loopId);
  const setup = setupOf(loop.config);
  const logPath = setupLogPath(stateDir, loopId);
  let logTail: string | null = null;
  try {
    const log = readFileSync(logPath, "utf8");
    logTail = scrubSecrets(log.slice(-LOG_TAIL_CHARS), await loopSecretValues(loopId, loop.config));
  } catch {
    // no setup ran (yet)
  }
  const status = record ? "ready" : setup && logTail !== null ? "failed" : setup ? "pending" : "none";
  return {
    status: status as "ready" | "failed" | "pending" | "none",
    included: record?.included ?? [],
    submodules: record?.submodules ?? [],
    setup: setup
      ? {
          argv: setup.argv,
          timeoutSeconds: setup.timeoutSeconds,
          exitCode: record?.setup?.exitCode ?? null,
          durationMs: record?.setup?.durationMs ?? null,
          logTail,
        }
      : null,
  };
}
