// The pure rules of graded evidence: what a check's command protects (and why), and the verdict lines against
// a baseline inventory, each requirement failing on its own.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempRoot } from "../fixtures/harness";
import { gradeAgainstBaseline, type BaselineInventory } from "./inventory-grade";
import { derivedProtection, protectedEntries } from "./protected-set";
import { testRunMarkers } from "./test-markers";

const tmp = tempRoot("ralph-evidence-rules-");
afterAll(() => tmp.cleanup());

function project(name: string, files: Record<string, string>) {
  const dir = join(tmp.root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const globs = (e: { glob: string }[]) => e.map((x) => x.glob);

describe("protection derived from the check", () => {
  it("protects the file the command names, with the reason, even where no default glob reaches it", () => {
    const dir = project("named", { "test.mjs": "", "check.sh": "" });
    const entries = derivedProtection([{ name: "tests", argv: ["node", "test.mjs"] }], dir);
    expect(entries).toContainEqual({ glob: "test.mjs", kind: "tests", why: 'check "tests" names it in its command' });
    expect(globs(derivedProtection([{ name: "c", argv: ["./check.sh"] }], dir))).toEqual(["check.sh"]);
  });

  it("an npm script: package.json, the package manager's settings, the runner's tests and config", () => {
    const dir = project("vitest", { "package.json": JSON.stringify({ scripts: { test: "vitest run" } }) });
    const entries = derivedProtection([{ name: "tests", argv: ["npm", "test"] }], dir);
    expect(globs(entries)).toEqual(
      expect.arrayContaining(["package.json", ".npmrc", "**/*.test.*", "**/*.spec.*", "vitest.config.*"]),
    );
    expect(entries.find((e) => e.glob === "vitest.config.*")?.why).toMatch(
      /configuration of vitest \(npm test runs `vitest run`\)/,
    );
  });

  it("pytest, go and cargo conventions", () => {
    const py = project("py", { "pytest.ini": "[pytest]\n" });
    expect(globs(derivedProtection([{ name: "t", argv: ["python3", "-m", "pytest"] }], py))).toEqual(
      expect.arrayContaining([
        "**/test_*.py",
        "**/conftest.py",
        "pytest.ini",
        "pyproject.toml",
        "setup.cfg",
        "tox.ini",
      ]),
    );
    const go = project("go", { "go.mod": "module x\n" });
    expect(globs(derivedProtection([{ name: "t", argv: ["go", "test", "./..."] }], go))).toEqual(
      expect.arrayContaining(["**/*_test.go", "go.mod"]),
    );
    const rs = project("rs", { "Cargo.toml": "" });
    expect(globs(derivedProtection([{ name: "t", argv: ["cargo", "test"] }], rs))).toEqual(
      expect.arrayContaining(["tests/**", "Cargo.toml", ".cargo/**", "**/build.rs"]),
    );
  });

  it("a check in a subfolder protects under it; the operator adds and removes entries", () => {
    const dir = project("sub", { "web/package.json": JSON.stringify({ scripts: { test: "jest" } }) });
    const derived = derivedProtection([{ name: "t", argv: ["npm", "test"], cwd: "web" }], dir);
    expect(globs(derived)).toEqual(expect.arrayContaining(["web/package.json", "web/jest.config.*"]));
    const merged = protectedEntries({ operator: ["fixtures/**"], derived, removed: ["web/package.json"] });
    expect(globs(merged)).not.toContain("web/package.json");
    expect(merged.find((e) => e.glob === "fixtures/**")).toEqual({
      glob: "fixtures/**",
      kind: "tests",
      why: "in the loop's protected paths",
    });
  });
});

describe("grading against the baseline inventory", () => {
  const base: BaselineInventory = {
    tests: { "a::t1": "failed", "a::t2": "failed", "a::k1": "passed", "a::k2": "passed", "a::s": "skipped" },
    counts: { passed: 2, failed: 2, errored: 0, skipped: 1, exitCode: 1 },
  };
  const counts = (passed: number, failed: number, skipped: number) => ({
    passed,
    failed,
    errored: 0,
    skipped,
    exitCode: failed ? 1 : 0,
  });

  it("all targets and kept tests pass: every line holds", () => {
    const g = gradeAgainstBaseline(base, {
      tests: { "a::t1": "passed", "a::t2": "passed", "a::k1": "passed", "a::k2": "passed", "a::s": "skipped" },
      counts: counts(4, 0, 1),
    });
    expect(g).toEqual({
      ok: true,
      shrank: false,
      lines: [
        { ok: true, text: "2 of 2 targets pass" },
        { ok: true, text: "2 of 2 kept" },
        { ok: true, text: "4 ran, baseline 4" },
        { ok: true, text: "1 skipped, baseline 1" },
      ],
    });
  });

  it("a kept test broken, a test gone, fewer run, more skipped: each is its own failing line", () => {
    const g = gradeAgainstBaseline(base, {
      tests: { "a::t1": "passed", "a::t2": "skipped", "a::k1": "failed", "a::s": "skipped" },
      counts: counts(1, 1, 2),
    });
    expect(g.ok).toBe(false);
    expect(g.shrank).toBe(true);
    expect(g.lines).toEqual([
      { ok: false, text: "1 of 2 targets pass (not yet: t2)" },
      { ok: false, text: "0 of 2 kept; broke k1; disappeared k2" },
      { ok: false, text: "2 ran, baseline 4" },
      { ok: false, text: "2 skipped, baseline 1" },
    ]);
  });

  it("zero tests ran never passes; without an inventory the exit code grades and says so", () => {
    expect(gradeAgainstBaseline(base, { tests: {}, counts: counts(0, 0, 0) }).lines.at(-2)).toEqual({
      ok: false,
      text: "no tests ran (baseline 4)",
    });
    const plain: BaselineInventory = { tests: null, counts: counts(1, 1, 0), exitCodeOnly: "cargo's summary" };
    const g = gradeAgainstBaseline(plain, { tests: null, counts: counts(2, 0, 0) });
    expect(g.ok).toBe(true);
    expect(g.lines[0]!.text).toBe("exit-code grading: cargo's summary; exit 0");
  });
});

describe("code that detects the test run", () => {
  it("Rust: cfg(not(test)) and static initializers are named; unit tests beside the code are not", async () => {
    const dir = project("markers", { "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a - b }\n" });
    const run = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();
    run("init", "-q");
    run("add", ".");
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base");
    const base = run("rev-parse", "HEAD");
    writeFileSync(
      join(dir, "src/lib.rs"),
      [
        "#[cfg(test)] pub fn add(_: i32, _: i32) -> i32 { 3 }",
        "#[cfg(not(test))] pub fn add(a: i32, b: i32) -> i32 { a - b }",
        '#[used] #[link_section = ".init_array"] static EARLY: extern "C" fn() = early;',
        "#[cfg(test)] mod tests { #[test] fn adds() {} }",
        "",
      ].join("\n"),
    );
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "cheat");
    const hits = await testRunMarkers(dir, base, run("rev-parse", "HEAD"), ["tests/**"]);
    expect(hits.map((h) => h.marker)).toEqual([
      "cfg(not(test)) in non-test code",
      "a static initializer (runs before the test harness)",
    ]);
  });
});
