// A bad environment value stops the server at start, naming the variable
// (issue 32: RALPH_SIGNIN_MAX_FAILURES=1000000 kept it up answering 500).
// A real process runs the start-up path instrumentation.ts runs, with the
// bad value, and must exit 1 saying which variable and why.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { inheritedEnv } from "../env";

const START = `import { startServerRuntime, stopOnBadEnvironment } from ${JSON.stringify(join(process.cwd(), "server/system/server-start.ts"))};
await startServerRuntime().catch(stopOnBadEnvironment);
console.log("still running");`;

it("RALPH_SIGNIN_MAX_FAILURES=1000000 stops the start with exit 1, naming the variable", async () => {
  const result = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", START],
      {
        cwd: process.cwd(),
        env: {
          ...inheritedEnv(["PATH", "HOME"]),
          RALPH_SIGNIN_MAX_FAILURES: "1000000",
        } as unknown as NodeJS.ProcessEnv,
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
  expect(result.stdout).not.toContain("still running");
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    /Ralph Control cannot start\. Invalid environment configuration:\n\s+RALPH_SIGNIN_MAX_FAILURES: /,
  );
}, 60_000);
