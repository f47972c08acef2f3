/**
 * Submodules in a loop's worktree. `git worktree add` leaves them empty, so
 * a build or test that needs them fails for a reason of place. Each one is
 * initialised from the user's own checkout of it (a local clone: no network,
 * no credentials, the commit the loop's HEAD records); one the user has not
 * initialised either is refused with the command that would fix it.
 * One level deep: a submodule's own submodules are not initialised.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { git } from "./git-cli";
import { WorkspaceEnvironmentError } from "./worktree-include";

interface Submodule {
  name: string;
  path: string;
}

/** The submodules .gitmodules declares in `dir` (name and path). */
async function declared(dir: string): Promise<Submodule[]> {
  if (!existsSync(join(dir, ".gitmodules"))) return [];
  const out = await git(dir, ["config", "-z", "--file", ".gitmodules", "--get-regexp", "^submodule\\..*\\.path$"], {
    allowFail: true,
  });
  return out
    .split("\0")
    .filter((entry) => entry !== "")
    .map((entry) => {
      const [key = "", path = ""] = entry.split("\n");
      return { name: key.replace(/^submodule\./, "").replace(/\.path$/, ""), path };
    });
}

/** Initialises the worktree's submodules from the checkout `top`; returns their paths. */
export async function initSubmodules(top: string, dir: string): Promise<string[]> {
  const modules = await declared(dir);
  for (const m of modules) {
    const local = join(top, m.path);
    if (!existsSync(join(local, ".git"))) {
      throw new WorkspaceEnvironmentError(
        `the submodule "${m.path}" is not initialised in your checkout, so the loop's worktree cannot have it: run "git submodule update --init ${m.path}" in ${top}, or run the loop in place`,
      );
    }
    const result = await git(
      dir,
      [
        "-c",
        `submodule.${m.name}.url=${local}`,
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "update",
        "--init",
        "--no-fetch",
        "--",
        m.path,
      ],
      { allowFail: true },
    );
    if (!existsSync(join(dir, m.path, ".git"))) {
      throw new WorkspaceEnvironmentError(
        `the submodule "${m.path}" could not be initialised in the loop's worktree from your checkout${result.trim() ? `: ${result.trim()}` : ""}`,
      );
    }
  }
  return modules.map((m) => m.path);
}
