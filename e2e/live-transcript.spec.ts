// The agent's turn reads as a conversation, live and afterwards, for Claude
// Code and Codex. The agent is test/fixtures/replay-transcript.mjs: it
// replays REAL output of claude-code 2.1.332 and codex 0.171.0 (captured
// against a scripted model server, see test/fixtures/transcripts/*.jsonl
// headers) with realistic pacing, through the loop's real claude-code / codex
// preset. Real-CLI loops are the CLI tests' job; this is about the page.
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./support/a11y";
import { signIn, trpc } from "./support/auth";
import { watchConsole } from "./support/evidence";
import { shot } from "./support/loops";

const replay = join(process.cwd(), "test/fixtures/replay-transcript.mjs");
const fixture = (name: string) => join(process.cwd(), "test/fixtures/transcripts", `${name}.jsonl`);
const HOSTILE = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;

async function startReplay(page: Page, preset: "claude-code" | "codex", name: string, pace: string) {
  const created = await trpc(page.request, "loops.create", {
    goal: `Fix the failing test (${preset} transcript)`,
    agent: {
      kind: "command",
      preset,
      argv: [process.execPath, replay, fixture(name), pace],
      // Printed as one more assistant text: it must show as text, never run.
      env: preset === "claude-code" ? { REPLAY_SECRET: HOSTILE } : {},
      timeoutSeconds: 120,
      // The replay script lives in the app folder, hidden from a sandboxed agent.
      sandbox: "off",
    },
    loop: {
      stop: { maxIterations: 1, noProgressIterations: 0 },
      retry: { maxAttempts: 1 },
      health: { checkInterval: 0 },
      completion: { allowNoEvidence: true },
    },
    start: true,
  });
  expect(created.status, created.error?.message).toBe(200);
  return (created.data as { id: string }).id;
}

async function openIteration(page: Page) {
  await expect(page.getByRole("tab", { name: /Iterations \(1\)/ })).toBeVisible({ timeout: 60_000 });
  const row = page.locator('[data-testid="iteration"][data-number="1"]').first();
  const toggle = row.getByRole("button").first();
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  const transcript = row.getByTestId("iteration-transcript");
  await transcript.scrollIntoViewIfNeeded();
  return transcript;
}

test("Claude Code's turn reads as a conversation, live and in the iteration detail", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleProblems = watchConsole(page);
  await signIn(page, "admin");
  const id = await startReplay(page, "claude-code", "claude-code-fix", "1.5");
  await page.goto(`/loops/${id}`);
  // Watched, as a reader would: scrolled out of view, the card holds still.
  await page.getByTestId("live-iteration").scrollIntoViewIfNeeded({ timeout: 30_000 });
  const live = page.getByTestId("live-transcript");
  await expect(live).toBeVisible({ timeout: 20_000 });
  // The retry Claude Code made on a 529, then the first words as they stream.
  await expect(live.getByTestId("transcript-retry")).toContainText("API error (529 overloaded): retry 1 of 10");
  await expect(live).toContainText("I'll start by running the test suite", { timeout: 20_000 });
  // Each tool call by name and a one-line summary; its result collapsed.
  const bash = live.getByTestId("transcript-tool").filter({ hasText: "Bash" }).first();
  await expect(bash).toContainText("npm test", { timeout: 20_000 });
  await expect(live.getByTestId("transcript-tool").filter({ hasText: "Edit" })).toContainText("src/sum.js", {
    timeout: 20_000,
  });
  await expect(live).not.toContainText('{"type"');
  await shot(page, "live-transcript-claude");
  await page.getByTestId("live-iteration").screenshot({ path: "test-results/screenshots/live-card-claude.png" });

  // Raw lines one click away, and back.
  await page.getByRole("group", { name: "Show the live output as" }).getByRole("button", { name: "Raw lines" }).click();
  await expect(page.getByTestId("live-output")).toContainText('{"type":"');
  await page
    .getByRole("group", { name: "Show the live output as" })
    .getByRole("button", { name: "Conversation" })
    .click();
  await expect(page.getByTestId("live-transcript")).toBeVisible();

  // Stored with the iteration: the same conversation, with the final result line.
  const transcript = await openIteration(page);
  await expect(transcript).toContainText("Transcript · Claude Code");
  const tools = transcript.getByTestId("transcript-tool");
  await expect(tools).toHaveCount(4);
  await expect(tools.nth(0)).toHaveAttribute("data-status", "error");
  await expect(tools.nth(3)).toHaveAttribute("data-status", "ok");
  await expect(transcript.getByTestId("transcript-result")).toContainText("Finished");
  await expect(transcript.getByTestId("transcript-result")).toContainText("5 turns · $0.0379");
  // A result opens on click: the Edit's input and what the tool answered.
  await tools.nth(2).locator("summary").click();
  await expect(tools.nth(2)).toContainText('"old_string": "return a - b;"');
  await expect(tools.nth(2)).toContainText("has been updated");
  // Hostile text stays text.
  await expect(transcript).toContainText(HOSTILE);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await shot(page, "iteration-transcript-claude");
  // The end of the turn, close up: the final result and the hostile text shown as text.
  await transcript.getByRole("list").evaluate((ol) => (ol.scrollTop = ol.scrollHeight));
  await transcript.screenshot({ path: "test-results/screenshots/iteration-transcript-claude-end.png" });

  await transcript.getByRole("button", { name: "Raw lines" }).click();
  await expect(transcript.getByTestId("iteration-transcript-raw")).toContainText('"type":"result"');
  expect(consoleProblems()).toEqual([]);
});

test("Codex's turn reads as a conversation, live and in the iteration detail", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await startReplay(page, "codex", "codex-fix", "2");
  await page.goto(`/loops/${id}`);

  // Watched, as a reader would: scrolled out of view, the card holds still.
  await page.getByTestId("live-iteration").scrollIntoViewIfNeeded({ timeout: 30_000 });
  const live = page.getByTestId("live-transcript");
  await expect(live).toBeVisible({ timeout: 20_000 });
  await expect(live).toContainText("I'll run the test suite first", { timeout: 20_000 });
  await expect(live.getByTestId("transcript-tool").filter({ hasText: "Shell" }).first()).toContainText("npm test");
  await expect(live.getByTestId("transcript-tool").filter({ hasText: "apply_patch" })).toContainText("src/sum.js", {
    timeout: 20_000,
  });
  await expect(live).not.toContainText('{"type"');
  await shot(page, "live-transcript-codex");

  const transcript = await openIteration(page);
  await expect(transcript).toContainText("Transcript · Codex");
  await expect(transcript.getByTestId("transcript-tool")).toHaveCount(3);
  await expect(transcript.getByTestId("transcript-tool").first()).toContainText("exit 1");
  await expect(transcript.getByTestId("transcript-result")).toContainText("12,600 in (6,144 cached) · 480 out");
  await expect(transcript).toContainText("Thinking: Running the tests");
  await shot(page, "iteration-transcript-codex");

  // Readable by everyone, in both themes, with a call opened.
  await transcript.getByTestId("transcript-tool").first().locator("summary").click();
  await expect(transcript.getByTestId("transcript-tool").first()).toContainText("not ok 1 - adds two numbers");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Switch to dark mode" }).click();
  await transcript.screenshot({ path: "test-results/screenshots/iteration-transcript-codex-dark.png" });
  expect(await seriousViolations(page)).toEqual([]);
});
