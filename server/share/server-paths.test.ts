import { describe, expect, it } from "vitest";
import { redactServerPaths, serverPathsToHide } from "./server-paths";

describe("server paths on shared pages", () => {
  const paths = serverPathsToHide(["/srv/ralph/data", "/srv/ralph", "/", "/home/", "relative/data"]);

  it("hides only absolute folders two levels deep or more, the longest first", () => {
    expect(paths).toEqual(["/srv/ralph/data", "/srv/ralph"]);
  });

  it("blanks them inside agent output, deep in rows (issue 31: home=…/data/agent-homes/… was published)", () => {
    const row = {
      output: "started with home=/srv/ralph/data/agent-homes/abc123 in /srv/ralph/worktrees/x",
      diagnostics: { stderrTail: "see /srv/ralph/data/logs/1.txt", warnings: ["/tmp/other stays"] },
      number: 3,
      finishedAt: new Date(0),
    };
    expect(redactServerPaths(row, paths)).toEqual({
      output: "started with home=[server path]/agent-homes/abc123 in [server path]/worktrees/x",
      diagnostics: { stderrTail: "see [server path]/logs/1.txt", warnings: ["/tmp/other stays"] },
      number: 3,
      finishedAt: new Date(0),
    });
  });
});
