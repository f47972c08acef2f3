// The merge queue in the browser (docs/merge-queue.md): a loop on a real git repository completes, the
// operator clicks Land onto main, the loop page shows its place and then "landed", and the repository's queue
// page shows the entry with the evidence re-run; main holds the loop's change.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { writeProject } from "../server/agents/fixtures/graded-loop";
import { signIn, trpc } from "./support/auth";
import { attachShot, watchConsole } from "./support/evidence";
import { expectStatus } from "./support/loops";

const root = mkdtempSync(join(tmpdir(), "ralph-e2e-merge-"));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" }).trim();

test("Land queues the loop, the queue page shows it landed with its evidence", async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchConsole(page);
  const repo = writeProject(join(root, "repo"), {
    "answer.txt": "0\n",
    "test.sh":
      '#!/bin/sh\necho "1..1"\nif grep -q 42 answer.txt; then echo "ok 1 - answer is 42"; else echo "not ok 1 - answer is 42"; exit 1; fi\n',
  });
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  // main stays checked out in the user's checkout, clean: it lands, and that checkout comes forward with it.

  await signIn(page, "operator");
  const created = await trpc(page.request, "loops.create", {
    goal: "Make the answer 42",
    name: "Land me",
    workspace: repo,
    agent: {
      kind: "command",
      preset: "generic",
      argv: ["sh", "-c", "echo 42 > answer.txt; echo '<promise>COMPLETE</promise>'"],
      timeoutSeconds: 30,
    },
    scorers: [{ kind: "command-check", name: "tests", argv: ["./test.sh"], format: "tap" }],
    loop: { stop: { maxIterations: 2, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
    start: true,
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const id = (created.data as { id: string }).id;
  await page.goto(`/loops/${id}`);
  await expectStatus(page, "completed", 90_000);

  const land = page.getByRole("region", { name: "Land" });
  await land.getByLabel("Target branch").fill("main");
  await land.getByRole("button", { name: "Land" }).click();
  await expect(land.getByText("ralph/")).toBeVisible();
  await expect(land.getByText("landed", { exact: true })).toBeVisible({ timeout: 60_000 });
  await attachShot(page, "loop-landed");

  await land.getByRole("link", { name: "Queue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Merge queue: main");
  const entry = page.getByRole("list", { name: "Queue entries" }).getByRole("listitem").first();
  await expect(entry).toContainText("landed");
  await expect(entry.getByRole("list", { name: "Evidence re-run" })).toContainText("tests");
  await expect(entry).toContainText("pass");
  await attachShot(page, "queue-page");
  expect(git(repo, "show", "main:answer.txt")).toBe("42");
  expect(readFileSync(join(repo, "answer.txt"), "utf8")).toBe("42\n");
  expect(git(repo, "status", "--porcelain")).toBe("");
  expect(problems()).toEqual([]);
});
