import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempRoot } from "../fixtures/harness";
import { detectRunner, runnerOfWords, substituteCommand } from "./detect";
import { planReport } from "./plan";
import { splitScript } from "./shell-words";

const tmp = tempRoot("ralph-detect-");
afterAll(() => tmp.cleanup());

let n = 0;
function project(files: Record<string, string | object>): string {
  const dir = join(tmp.root, `p${++n}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files))
    writeFileSync(join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
  return dir;
}
const pkg = (test: string, extra: object = {}) => ({ "package.json": { scripts: { test, ...extra } } });
const file = (name: string) => `/tmp/report/${name}`;

describe("reading package scripts", () => {
  it("splits commands on operators, keeping quoted words whole", () => {
    expect(splitScript(`tsc -p . && cross-env CI=1 vitest run --reporter="a b" ; echo 'x && y'`)).toEqual([
      ["tsc", "-p", "."],
      ["cross-env", "CI=1", "vitest", "run", "--reporter=a b"],
      ["echo", "x && y"],
    ]);
  });

  it("finds the runner past wrappers", () => {
    expect(runnerOfWords(["npx", "--no-install", "jest", "--ci"])).toEqual({ runner: "jest", words: ["jest", "--ci"] });
    expect(runnerOfWords(["c8", "node", "--test"])?.runner).toBe("node-test");
    expect(runnerOfWords(["python3.11", "-m", "pytest", "-q"])?.runner).toBe("pytest");
    expect(runnerOfWords(["node_modules/.bin/vitest"])?.runner).toBe("vitest");
    expect(runnerOfWords(["node", "server.js"])).toBeNull();
    expect(runnerOfWords(["go", "build"])).toBeNull();
  });
});

describe("detecting the runner", () => {
  it("npm test, pnpm test and yarn test follow the script, and scripts it runs last", () => {
    const dir = project(pkg("npm run lint && npm run unit", { unit: "vitest run", lint: "eslint ." }));
    expect(detectRunner(["npm", "test"], dir)).toMatchObject({
      runner: "vitest",
      inject: "args",
      via: "npm test runs `vitest run`",
      packageManager: "npm",
    });
    expect(detectRunner(["pnpm", "test"], dir)).toMatchObject({ runner: "vitest", packageManager: "pnpm" });
    expect(detectRunner(["yarn", "unit"], dir)).toMatchObject({ runner: "vitest", packageManager: "yarn" });
  });

  it("a runner that is not the last command gets no arguments, but env-driven runners still get their report", () => {
    expect(detectRunner(["npm", "test"], project(pkg("jest && eslint .")))).toMatchObject({
      runner: "jest",
      inject: "none",
    });
    expect(detectRunner(["npm", "test"], project(pkg("node --test && eslint .")))).toMatchObject({
      runner: "node-test",
      inject: "env",
    });
  });

  it("falls back to the project's files", () => {
    expect(detectRunner(["make", "test"], project({ "pytest.ini": "[pytest]\n" }))).toMatchObject({
      runner: "pytest",
      inject: "env",
    });
    expect(detectRunner(["make", "test"], project({ "pyproject.toml": "[tool.pytest.ini_options]\n" }))?.runner).toBe(
      "pytest",
    );
    expect(detectRunner(["./test.sh"], project({ "go.mod": "module x\n" }))).toMatchObject({
      runner: "go",
      inject: "none",
    });
    expect(detectRunner(["./test.sh"], project({ "Cargo.toml": "[package]\n" }))?.runner).toBe("cargo");
    const deps = project({ "package.json": { scripts: { test: "./run-tests.sh" }, devDependencies: { mocha: "12" } } });
    expect(detectRunner(["npm", "test"], deps)).toMatchObject({
      runner: "mocha",
      inject: "none",
      via: "package.json depends on mocha",
    });
    expect(detectRunner(["./check.sh"], project({}))).toBeNull();
  });
});

describe("npm test where there is no package.json", () => {
  it("runs the project's own runner instead, and says so", () => {
    expect(substituteCommand(["npm", "test"], project({ "go.mod": "module x\n" }))).toEqual({
      argv: ["go", "test", "./..."],
      why: "there is no package.json, so `npm test` cannot run; ran `go test ./...` instead (go.mod is present)",
    });
    expect(substituteCommand(["npm", "test"], project({ "pytest.ini": "" }))?.argv).toEqual([
      "python3",
      "-m",
      "pytest",
    ]);
    expect(substituteCommand(["npm", "test"], project({ ...pkg("vitest"), "go.mod": "" }))).toBeNull();
    expect(substituteCommand(["make", "test"], project({ "go.mod": "" }))).toBeNull();
    expect(substituteCommand(["npm", "test"], project({}))).toBeNull();
  });
});

describe("planning the report", () => {
  const plan = (argv: string[], dir: string, env: Record<string, string> = {}) =>
    planReport(argv, detectRunner(argv, dir), file, env);

  it("npm test passes the runner's report flags after --, into a file outside the workspace", () => {
    expect(plan(["npm", "test"], project(pkg("vitest run")))).toMatchObject({
      argv: ["npm", "test", "--", "--reporter=default", "--reporter=json", "--outputFile.json=/tmp/report/vitest.json"],
      report: { kind: "file", path: "/tmp/report/vitest.json", format: "json" },
    });
    expect(plan(["npm", "test"], project(pkg("vitest")))!.argv).toContain("--run");
    expect(plan(["npm", "test", "--", "--ci"], project(pkg("jest")))!.argv).toEqual([
      "npm",
      "test",
      "--",
      "--ci",
      "--json",
      "--outputFile=/tmp/report/jest.json",
    ]);
    expect(plan(["yarn", "test"], project(pkg("mocha")))!.argv).toEqual([
      "yarn",
      "test",
      "--reporter",
      "json",
      "--reporter-option",
      "output=/tmp/report/mocha.json",
    ]);
  });

  it("env-driven runners get their report through the environment, added to what is there", () => {
    const node = plan(["npm", "test"], project(pkg("node --test")), { NODE_OPTIONS: "--max-old-space-size=512" });
    expect(node.argv).toEqual(["npm", "test"]);
    expect(node.env.NODE_OPTIONS).toBe(
      '--max-old-space-size=512 --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination="/tmp/report/node-test.tap"',
    );
    const py = plan(["pytest", "-q"], project({}));
    expect(py.env).toEqual({ PYTEST_ADDOPTS: '--junitxml="/tmp/report/pytest.xml"' });
    expect(py.report).toEqual({ kind: "file", path: "/tmp/report/pytest.xml", format: "junit" });
  });

  it("cargo: its own runner for every test binary, --no-fail-fast before the command's --", () => {
    const cargo = plan(["cargo", "test", "--", "--nocapture"], project({}));
    const runner = "/tmp/report/cargo-runner.sh";
    expect(cargo).toMatchObject({
      argv: ["cargo", "test", "--no-fail-fast", "--", "--nocapture"],
      report: { kind: "file", path: "/tmp/report/cargo-tests.log", format: "libtest-log" },
    });
    expect(Object.values(cargo.env)).toContain(runner);
    expect(Object.keys(cargo.env).join(" ")).toMatch(/^CARGO_TARGET_[A-Z0-9_]+_RUNNER/);
    expect(cargo.scripts?.[runner]).toMatch(/--logfile "\$log"/);
    // Through a package script only the variable reaches cargo: no flag that could land after the script's --.
    expect(plan(["npm", "test"], project(pkg("cargo test -- --nocapture"))).argv).toEqual(["npm", "test"]);
    // A runner the operator set in the check's environment is theirs.
    const own = planReport(["cargo", "test"], detectRunner(["cargo", "test"], project({})), (n) => `/r/${n}`, {
      ...Object.fromEntries(Object.keys(cargo.env).map((k) => [k, "qemu-x"])),
    });
    expect(own.note).toMatch(/already sets CARGO_TARGET_/);
  });

  it("respects reports the project already chose, and says why nothing was added", () => {
    const own = plan(["npx", "vitest", "run", "--outputFile=out.json", "--reporter=json"], project({}));
    expect(own).toMatchObject({
      argv: ["npx", "vitest", "run", "--outputFile=out.json", "--reporter=json"],
      report: { kind: "stdout" },
    });
    expect(own.note).toBe("No report flags added: the command already chooses vitest's output file.");
    // A stdout reporter (tap) is overridden: what the tested code prints could pass for results there.
    expect(plan(["npx", "mocha", "--reporter", "tap"], project({}))).toMatchObject({
      argv: [
        "npx",
        "mocha",
        "--reporter",
        "tap",
        "--reporter",
        "json",
        "--reporter-option",
        "output=/tmp/report/mocha.json",
      ],
      report: { kind: "file", format: "json" },
    });
    expect(plan(["npx", "mocha", "-R", "xunit"], project({})).report).toEqual({
      kind: "file",
      path: "/tmp/report/mocha.xml",
      format: "junit",
    });
    expect(plan(["go", "test", "./..."], project({}))).toMatchObject({
      argv: ["go", "test", "./...", "-json"],
      report: { kind: "stdout", format: "go-json" },
    });
    expect(plan(["cargo", "test", "--", "--logfile", "x"], project({})).note).toMatch(
      /already sets libtest's --logfile/,
    );
    expect(plan(["npm", "test"], project(pkg("jest && eslint ."))).note).toMatch(/not the last command/);
  });
});
