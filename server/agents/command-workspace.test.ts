import { describe, expect, it } from "vitest";
import type { AgentProgressEvent } from "../engine";
import { preparedWorkspace } from "./command-workspace";
import { request } from "./fixtures/harness";
import type { AgentDeps } from "./deps";

const depsWith = (workspaceDir: AgentDeps["workspaceDir"]) =>
  ({ workspaceDir, secrets: { resolve: async () => undefined } }) as AgentDeps;

describe("preparing the workspace", () => {
  it("a slow first preparation (a large repository's worktree) is a step the live output shows", async () => {
    const events: AgentProgressEvent[] = [];
    const dir = await preparedWorkspace(
      depsWith(() => new Promise((r) => setTimeout(() => r("/ws"), 700))),
      { ...request({ loopId: "slow" }), onProgress: (e) => events.push(e) },
    );
    expect(dir).toBe("/ws");
    const lines = events.flatMap((e) => (e.kind === "output" ? [e.text] : []));
    expect(lines[0]).toContain("preparing the loop's workspace");
    expect(lines[1]).toMatch(/workspace ready after \d+\.\d s/);
  });

  it("a prepared workspace says nothing", async () => {
    const events: AgentProgressEvent[] = [];
    await preparedWorkspace(
      depsWith(async () => "/ws"),
      {
        ...request({ loopId: "fast" }),
        onProgress: (e) => events.push(e),
      },
    );
    expect(events).toEqual([]);
  });
});
