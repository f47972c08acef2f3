import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDependencyCopy } from "./dependency-copy";

const root = mkdtempSync(join(tmpdir(), "ralph-dep-copy-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function pristine(): string {
  const from = join(root, "from", "node_modules");
  mkdirSync(join(from, "mocha", "lib"), { recursive: true });
  mkdirSync(join(from, ".bin"), { recursive: true });
  writeFileSync(join(from, "mocha", "lib", "cli.js"), "export const run = () => 1;\n");
  symlinkSync("../mocha/lib/cli.js", join(from, ".bin", "mocha"));
  return from;
}

describe("a grading tree's dependency copy", () => {
  const from = pristine();
  const to = join(root, "tree", "node_modules");
  const cli = join(to, "mocha", "lib", "cli.js");

  it("is copied once and kept while nothing wrote in it", async () => {
    expect(await freshDependencyCopy(from, to)).toBe(true);
    expect(readlinkSync(join(to, ".bin", "mocha"))).toBe("../mocha/lib/cli.js");
    expect(await freshDependencyCopy(from, to)).toBe(false);
  });

  it("is copied again after the check's code patched it, even with the same size and mtime put back", async () => {
    const { atime, mtime } = statSync(cli);
    writeFileSync(cli, "export const run = () => 0;\n"); // same length
    utimesSync(cli, atime, mtime);
    expect(await freshDependencyCopy(from, to)).toBe(true);
    expect(readFileSync(cli, "utf8")).toBe("export const run = () => 1;\n");
  });

  it("is copied again when a file was added, removed or re-linked", async () => {
    writeFileSync(join(to, "mocha", "lib", "hook.js"), "");
    expect(await freshDependencyCopy(from, to)).toBe(true);
    rmSync(join(to, ".bin", "mocha"));
    symlinkSync("/elsewhere", join(to, ".bin", "mocha"));
    expect(await freshDependencyCopy(from, to)).toBe(true);
    expect(readlinkSync(join(to, ".bin", "mocha"))).toBe("../mocha/lib/cli.js");
    expect(await freshDependencyCopy(from, to)).toBe(false);
  });

  it("replaces a link to the agent's copy an older tree made", async () => {
    const link = join(root, "old-tree", "node_modules");
    mkdirSync(join(root, "old-tree"), { recursive: true });
    symlinkSync(from, link);
    expect(await freshDependencyCopy(from, link)).toBe(true);
    expect(statSync(link).isDirectory()).toBe(true);
    expect(readFileSync(join(link, "mocha", "lib", "cli.js"), "utf8")).toBe("export const run = () => 1;\n");
  });
});
