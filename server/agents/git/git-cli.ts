/**
 * The real `git` CLI, run as a child process through argv (no shell), so a
 * snapshot never blocks the event loop. The user's hooks never run for our
 * commands: core.hooksPath points at an empty folder.
 */
import { execFile, type ExecFileException, type ExecFileOptionsWithStringEncoding } from "node:child_process";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inheritedEnv } from "../../env";

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
export function git(cwd: string, args: readonly string[], opts: { allowFail?: boolean } = {}): Promise<string> {
  const options: ExecFileOptionsWithStringEncoding = {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    // The allowlisted basics (PATH, HOME), never the server's own configuration.
    env: { ...inheritedEnv(["PATH", "HOME"]), GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  };
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      [...baseArgs(), ...args],
      options,
      (error: ExecFileException | null, stdout: string, stderr: string) => {
        if (error && !opts.allowFail) {
          const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
          const why = missing ? "the git binary was not found" : stderr.trim() || error.message;
          reject(new GitError(`git ${args[0]} failed: ${why}`, args, stderr));
          return;
        }
        resolvePromise(stdout);
      },
    );
  });
}
