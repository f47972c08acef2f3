// What an agent can leave where the server reads or writes (the prompt file
// in its workspace, a test report in its HOME): symlinks to the server's
// files, a symlinked folder, a FIFO. None is followed; the victim is untouched.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFileInside, writeFileInside } from "./safe-files";

const base = mkdtempSync(join(tmpdir(), "ralph-safe-files-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const data = join(base, "data");
const ws = join(base, "ws");
mkdirSync(data);
mkdirSync(ws);
const victim = join(data, "ralph.db");
writeFileSync(victim, "THE-DATABASE");

describe("writeFileInside", () => {
  it("replaces a symlink to a server file instead of writing through it", () => {
    symlinkSync(victim, join(ws, "prompt.md"));
    writeFileInside(ws, join(ws, "prompt.md"), "the prompt");
    expect(readFileSync(victim, "utf8")).toBe("THE-DATABASE");
    expect(readFileSync(join(ws, "prompt.md"), "utf8")).toBe("the prompt");
  });

  it("refuses a folder on the way that is a symlink out of the workspace, and a path out of it", () => {
    symlinkSync(data, join(ws, ".ralph"));
    expect(() => writeFileInside(ws, join(ws, ".ralph", "ralph.db"), "x")).toThrow(/leads out of/);
    expect(() => writeFileInside(ws, join(ws, "..", "data", "ralph.db"), "x")).toThrow(/leads out of/);
    expect(readFileSync(victim, "utf8")).toBe("THE-DATABASE");
  });

  it("writes a plain file, making its folder", () => {
    writeFileInside(ws, join(ws, "deep", "er", "p.md"), "ok");
    expect(readFileSync(join(ws, "deep", "er", "p.md"), "utf8")).toBe("ok");
  });
});

describe("readFileInside", () => {
  it("reads a regular file and nothing else", () => {
    const home = join(base, "home");
    mkdirSync(home);
    writeFileSync(join(home, "report.xml"), "<testsuite/>");
    expect(readFileInside(home, join(home, "report.xml"))).toBe("<testsuite/>");
    symlinkSync(victim, join(home, "linked.xml"));
    expect(readFileInside(home, join(home, "linked.xml"))).toBeNull();
    execFileSync("mkfifo", [join(home, "fifo.xml")]);
    expect(readFileInside(home, join(home, "fifo.xml"))).toBeNull();
    symlinkSync(data, join(home, "dir-link"));
    expect(readFileInside(home, join(home, "dir-link", "ralph.db"))).toBeNull();
    expect(readFileInside(home, join(home, "missing.xml"))).toBeNull();
  });
});
