/**
 * The real `git` CLI, run as a child process through argv (no shell), so a
 * snapshot never blocks the event loop; started through the spawn helper
 * (spawner.ts) like the agents, one per iteration at least. The user's hooks never run for our
 * commands: core.hooksPath points at an empty folder.
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inheritedEnv } from "../../env";
import { collectOutput } from "../spawner";

export class GitError extends Error {
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(message);
    this.name = "GitError";
  }
}

const emptyHooks = (() => {
  let dir: string | null = null;
  return () => {
    if (!dir) {
      dir = join(tmpdir(), "ralph-git-no-hooks");
      mkdirSync(dir, { recursive: true });
    }
    return dir;
  };
})();

/** Identity and settings for every command: no hooks, no signing, no pager, no prompts. */
function baseArgs(): string[] {
  return [
    "-c",
    `core.hooksPath=${emptyHooks()}`,
    "-c",
    "commit.gpgSign=false",
    "-c",
    "user.name=Ralph Control",
    "-c",
    "user.email=ralph@localhost",
    "-c",
    "core.quotePath=false",
    // Remembers unchanged folders between snapshots: the add scans less of a large tree.
    "-c",
    "core.untrackedCache=true",
    // A snapshot never starts a background gc or maintenance run of the user's repository.
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
  ];
}

/** Runs `git <args>` in `cwd`; resolves stdout, rejects with a GitError naming the command. */
export async function git(
  cwd: string,
  args: readonly string[],
  opts: { allowFail?: boolean; input?: string } = {},
): Promise<string> {
  const run = await collectOutput("git", [...baseArgs(), ...args], {
    cwd,
    ...(opts.input !== undefined ? { stdin: opts.input } : {}),
    // The allowlisted basics (PATH, HOME), never the server's own configuration.
    env: { ...inheritedEnv(["PATH", "HOME"]), GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if ((run.error !== null || run.code !== 0) && !opts.allowFail) {
    const missing = run.error !== null && run.error.includes("ENOENT");
    const how = run.error ?? (run.code === null ? `killed by ${run.signal}` : `exit code ${run.code}`);
    const why = missing ? "the git binary was not found" : run.stderr.trim() || how;
    throw new GitError(`git ${args[0]} failed: ${why}`, args, run.stderr);
  }
  return run.stdout;
}
