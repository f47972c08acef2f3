// Every way a workspace path could lead into (or around) the data folder
// through the filesystem, tried on real folders and links: each is refused,
// and a plain folder beside the data folder stays allowed.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { guardedWorkspace, physicalPath, workspaceOverlap, type GuardedFolder } from "./workspace-guard";

const base = physicalPath(mkdtempSync(join(tmpdir(), "ralph-guard-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const data = join(base, "srv", "data");
const root = join(base, "roots");
const ws = join(root, "ws");
for (const dir of [join(data, "agent-homes", "x"), ws, join(root, "other")]) mkdirSync(dir, { recursive: true });
const guarded: GuardedFolder[] = [{ what: "data folder", path: data }];

symlinkSync(data, join(ws, "abs-link"));
symlinkSync(relative(ws, data), join(ws, "rel-link"));
symlinkSync(join(base, "srv"), join(ws, "around-link"));
symlinkSync(join(data, "agent-homes"), join(ws, "homes-link"));
symlinkSync(join(ws, "abs-link"), join(ws, "chained-link"));
mkdirSync(join(base, "linked-parent"));
symlinkSync(join(base, "srv"), join(root, "parent-link"));
symlinkSync(join(root, "other"), join(ws, "fine-link"));

describe("workspaceOverlap", () => {
  it.each([
    ["the data folder itself", data],
    ["a folder inside it", join(data, "agent-homes", "x")],
    ["a folder around it", join(base, "srv")],
    ["/", "/"],
    ["an absolute link to it", join(ws, "abs-link")],
    ["a relative link to it", join(ws, "rel-link")],
    ["a link to a link to it", join(ws, "chained-link")],
    ["a link to a folder inside it", join(ws, "homes-link")],
    ["a link to the folder that contains it", join(ws, "around-link")],
    ["a path through a link to the folder that contains it", join(ws, "around-link", "data", "agent-homes")],
    ["a symlinked parent", join(root, "parent-link", "data")],
    ["a missing folder under a symlinked parent", join(root, "parent-link", "data", "not-yet", "made")],
    ["`..` after a link (the kernel goes to the link's parent)", join(ws, "homes-link") + "/../agent-homes"],
    ["`..` segments at all", `${ws}/../ws`],
  ])("refuses %s", (_what, path) => {
    expect(workspaceOverlap(path, guarded)).toMatch(/must/);
    expect(() => guardedWorkspace(path, guarded)).toThrow(/workspace .*: must/);
  });

  it("refuses a workspace inside the data folder named through a link to the data folder itself", () => {
    const linkedData = join(base, "data-link");
    symlinkSync(data, linkedData);
    expect(workspaceOverlap(join(data, "agent-homes"), [{ what: "data folder", path: linkedData }])).toMatch(/must/);
    expect(workspaceOverlap(join(linkedData, "agent-homes"), guarded)).toMatch(/must/);
  });

  it("allows folders beside the data folder, through links too, and returns the physical path", () => {
    expect(workspaceOverlap(ws, guarded)).toBeNull();
    expect(workspaceOverlap(join(root, "other", "not-yet"), guarded)).toBeNull();
    expect(guardedWorkspace(join(ws, "fine-link"), guarded)).toBe(join(root, "other"));
  });

  it("names where a link leads", () => {
    expect(workspaceOverlap(join(ws, "abs-link"), guarded)).toBe(
      `must be neither inside nor around the data folder (it leads to ${data})`,
    );
  });
});
