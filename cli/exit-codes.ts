// The CLI's exit codes, one table (docs/cli.md documents the same one). The
// loop outcomes follow what CI wants to branch on; 64 and 69 are sysexits.h's
// EX_USAGE and EX_UNAVAILABLE, 77 its EX_NOPERM.
export const EXIT = {
  /** Completed on evidence. */
  completed: 0,
  /** Failed (or the command was refused: not found, conflict, server error). */
  failed: 1,
  /** Stopped on a limit or the budget. */
  stopped: 2,
  /** Needs attention or awaiting approval (`--wait --no-block`). */
  attention: 3,
  /** Interrupted, killed (the loop paused), terminated or cancelled. */
  interrupted: 130,
  usage: 64,
  unreachable: 69,
  /** The token is missing, revoked or expired, or its role is not enough. */
  denied: 77,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Stop types an operator causes: the run did not fail, someone ended it. */
const OPERATOR_STOPS = new Set(["explicit_stop", "user_interrupted", "cancelled", "race_lost"]);

/**
 * What a loop's state means for a waiting caller: an exit code, or null while
 * it is still going (waiting, running, queued...). `noBlock` turns a loop that
 * waits for a person (approval gate) into exit 3 instead of waiting on.
 */
export function exitCodeForLoop(
  loop: { status: string; stopType?: string | null },
  options: { noBlock?: boolean } = {},
): ExitCode | null {
  switch (loop.status) {
    case "completed":
      return EXIT.completed;
    case "failed":
      return EXIT.failed;
    case "cancelled":
      return EXIT.interrupted;
    case "stopped":
    case "terminated":
      return OPERATOR_STOPS.has(loop.stopType ?? "") ? EXIT.interrupted : EXIT.stopped;
    // A loop pauses when an operator interrupts or kills it: it will not move until someone resumes it.
    case "paused":
      return EXIT.interrupted;
    case "awaiting_approval":
    case "needs_attention":
      return options.noBlock ? EXIT.attention : null;
    default:
      return null;
  }
}
