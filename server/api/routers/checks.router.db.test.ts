// "Test the check now": operators see the runner a check detects and run it
// once in an existing workspace; a path that does not exist is a 400.
import { TRPCError } from "@trpc/server";
import { afterAll, expect, it, vi } from "vitest";
import { callerAs } from "../../../test/auth-fixtures";
import { describeEachProvider } from "../../../test/db-providers";
import { tempRoot } from "../../agents/fixtures/harness";
import { copyProject } from "../../agents/fixtures/runner-projects";
import type { Actor } from "../../auth/actor";

const tmp = tempRoot("ralph-checks-");
afterAll(() => tmp.cleanup());
// Operators may run checks only in folders an admin allowed, as for loops.
vi.stubEnv("RALPH_WORKSPACE_ROOTS", tmp.root);

const operator: Actor = { id: "op", email: "op@checks.test", name: "op", role: "operator" };
const check = { kind: "command-check", name: "tests", argv: ["npm", "test"] };

async function codeOf(call: Promise<unknown>) {
  try {
    await call;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
}

describeEachProvider("checks router", ({ db, kind }) => {
  it("describes the detected runner and the report it will read", async () => {
    const workspace = copyProject("jest", tmp.root, `jest-${kind}`);
    const described = await callerAs(db(), operator).checks.detect({ workspace, check });
    expect(described).toEqual({
      runner: { id: "jest", label: "Jest", needs: "jest in the project's node_modules" },
      via: "npm test runs `jest`",
      argv: ["npm", "test", "--", "--json", "--outputFile=<temp-dir>/jest.json"],
      env: {},
      report: "jest's JSON report file",
      note: null,
    });
  });

  it("runs the check once, sandboxed like an iteration, and returns the score with the failing tests", async () => {
    // node:test needs no node_modules, so it runs inside the sandbox as an operator's loop would.
    const workspace = copyProject("node-test-nested", tmp.root, `node-${kind}`);
    const result = await callerAs(db(), operator).checks.run({
      workspace,
      check: { ...check, argv: ["node", "--test"] },
    });
    expect(result.score).toBe(4 / 7);
    expect(result.tests).toMatchObject({ passed: 4, failed: 3, skipped: 1, runner: "node-test", counted: true });
    const names = result.tests!.failures.map((f) => f.name);
    expect(names).toHaveLength(3);
    expect(names.some((n) => /ünïcödé 名前/.test(n))).toBe(true);
  }, 120_000);

  it("applies the loop policy: an operator cannot run a check outside the allowed folders", async () => {
    const outside = tempRoot("ralph-checks-outside-");
    try {
      const workspace = copyProject("node-test-flat", outside.root);
      const code = await codeOf(callerAs(db(), operator).checks.run({ workspace, check }));
      expect(code).toBe("FORBIDDEN");
    } finally {
      outside.cleanup();
    }
  });

  it("refuses workspaces that do not exist, are relative or empty, and invalid checks, with a 400", async () => {
    const caller = callerAs(db(), operator);
    for (const workspace of ["/no/such/dir/anywhere", "relative/path", ""]) {
      expect(await codeOf(caller.checks.run({ workspace, check }))).toBe("BAD_REQUEST");
      expect(await codeOf(caller.checks.detect({ workspace, check }))).toBe("BAD_REQUEST");
    }
    const workspace = copyProject("vitest", tmp.root, `vitest-${kind}`);
    expect(await codeOf(caller.checks.detect({ workspace, check: { ...check, cwd: "missing" } }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.checks.detect({ workspace, check: { kind: "command-check", argv: [] } }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("viewers may not run checks", async () => {
    const viewer: Actor = { ...operator, id: "v", role: "viewer" };
    const workspace = tmp.root;
    expect(await codeOf(callerAs(db(), viewer).checks.run({ workspace, check }))).toBe("FORBIDDEN");
  });
});
