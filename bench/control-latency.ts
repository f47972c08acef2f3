// A control clicked in one tab, seen in another: two pages of the same
// signed-in browser on one loop page. Tab A acts as an operator does (the
// button, then its dialog where it has one: a reason for a kill, the message
// of a nudge, the confirmation of a resume or an approval); tab B records when
// the change shows (its status badge, or for a nudge its "Nudge pending…"
// button). Each sample is the time from the click that sends the control in A
// to the change in B. Per control, on loops shaped for it:
// - interrupt / resume: a loop waiting 10 min between iterations (waiting ⇄ paused);
// - kill / resume: a loop whose iteration runs a minute (running → paused → running);
// - nudge: a loop iterating every ~2 s (the nudge is pending until the next iteration takes it);
// - approve: a loop with a gate after every iteration (awaiting approval → on).
import type { Page } from "@playwright/test";
import { call, until, type BenchApp } from "./ui-app";

export const CONTROLS = ["interrupt", "kill", "resume", "nudge", "approve"] as const;
export type BenchControl = (typeof CONTROLS)[number];

export interface ControlLatencyFigures {
  /** ms from the click in tab A to tab B showing the change, per control. */
  samples: Record<BenchControl, number[]>;
  /** The changes sampled, e.g. "waiting→paused". */
  changes: string[];
  /** Why a scenario ended early (a change that never showed in the other tab), by scenario. */
  problems: string[];
}

const TOOLBAR = "[role=toolbar][aria-label='Loop controls']";
const statusOf = (page: Page) =>
  page.evaluate(() => document.querySelector("[data-testid=loop-status] span")?.textContent ?? "");

/** How each control is sent from tab A: its button, then its dialog's fields and confirm button (if any). */
const SEND: Record<BenchControl, { button: string; fill?: [label: string, value: string]; confirm?: string }> = {
  interrupt: { button: "Interrupt" },
  kill: { button: "Kill", fill: ["Reason", "bench: kill"], confirm: "Kill" },
  resume: { button: "Resume", confirm: "Resume" },
  nudge: { button: "Nudge", fill: ["Message", "bench: a nudge"], confirm: "Send nudge" },
  approve: { button: "Approve", confirm: "Approve" },
};

/** Resolves in tab B with the wall-clock time the watched text first differs from `before`. */
function watch(b: Page, what: "status" | "nudge", before: string) {
  const seen = b.evaluate(
    ([kind, old]) =>
      new Promise<[number, string]>((resolve) => {
        // No named helpers in here: tsx would wrap them in a __name() the page does not have.
        const observer = new MutationObserver(() => {
          const now =
            kind === "status"
              ? (document.querySelector("[data-testid=loop-status] span")?.textContent ?? "")
              : ([...document.querySelectorAll("[role=toolbar][aria-label='Loop controls'] button")]
                  .map((el) => el.textContent?.trim() ?? "")
                  .find((t) => t.startsWith("Nudge")) ?? "");
          if (now !== old) {
            observer.disconnect();
            resolve([Date.now(), now]);
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    [what, before] as const,
  );
  // Not left unhandled if the click fails and the page closes under it.
  seen.catch(() => undefined);
  return seen;
}

/** Sends `control` from tab A; resolves with the wall-clock time of the click that sent it. */
async function send(a: Page, control: BenchControl): Promise<number> {
  const how = SEND[control];
  const button = a.locator(`${TOOLBAR} button:enabled`, { hasText: new RegExp(`^\\s*${how.button}`) }).first();
  await button.waitFor({ timeout: 20_000 });
  if (!how.confirm) return clickNow(a, TOOLBAR, how.button);
  await button.click();
  const dialog = a.getByRole("dialog").last();
  await dialog.waitFor();
  if (how.fill) await dialog.getByLabel(new RegExp(`^${how.fill[0]}`)).fill(how.fill[1]);
  return clickNow(a, "[role=dialog], dialog", how.confirm);
}

/** Clicks the visible, enabled button starting with `name` inside `scope` in the page; returns when. */
const clickNow = (page: Page, scope: string, name: string) =>
  page.evaluate(
    ([sel, label]) => {
      // The visible one: the page keeps other dialogs mounted but hidden.
      const button = [...document.querySelectorAll(sel)]
        .flatMap((root) => [...root.querySelectorAll("button")])
        .find(
          (el) => el.textContent?.trim().startsWith(label) && !el.disabled && (el as HTMLElement).offsetParent !== null,
        );
      if (!button) throw new Error(`no enabled ${label} button in ${sel}`);
      const at = Date.now();
      button.click();
      return at;
    },
    [scope, name] as const,
  );

interface Scenario {
  name: string;
  loop: Record<string, unknown>;
  agent: Record<string, unknown>;
  /** The control to send next, from B's current status (null: wait for the loop to move on). */
  next(status: string, nudgePending: boolean): BenchControl | null;
}

const SCENARIOS: Scenario[] = [
  {
    name: "waiting loop",
    agent: { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 0, stepsToComplete: 50 },
    loop: { pacing: { delayMs: 600_000 } },
    next: (s) => (s === "paused" ? "resume" : s === "waiting" ? "interrupt" : null),
  },
  {
    name: "long iteration",
    agent: { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 60_000, stepsToComplete: 50 },
    loop: {},
    next: (s) => (s === "paused" ? "resume" : s === "running" ? "kill" : null),
  },
  {
    name: "iterating loop",
    agent: { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 1500, stepsToComplete: 50 },
    loop: {},
    next: (s, pending) => (s === "running" && !pending ? "nudge" : null),
  },
  {
    name: "gate every iteration",
    // An iteration of 1.5 s between gates: with an instant one the next gate opened before the other
    // tab's refetch, which then still read "awaiting approval".
    agent: { kind: "demo", failureRate: 0, earlyClaimRate: 0, delayMs: 1500, stepsToComplete: 50 },
    loop: { approvals: { periodic: { every: 1, deadline: 0 } } },
    next: (s) => (s === "awaiting approval" ? "approve" : null),
  },
];

/** `perControl` samples of each control (resume is sampled in two scenarios and counted once per click). */
export async function measureControlLatency(app: BenchApp, perControl = 50): Promise<ControlLatencyFigures> {
  const result: ControlLatencyFigures = {
    samples: { interrupt: [], kill: [], resume: [], nudge: [], approve: [] },
    changes: [],
    problems: [],
  };
  for (const scenario of SCENARIOS) {
    // A demo loop completes after 50 steps: a fresh loop takes over until the scenario has its samples.
    for (
      let round = 0;
      round < 6 && CONTROLS.some((c) => wanted(result, perControl, c) && usedBy(scenario, c));
      round++
    )
      if (
        !(await runScenario(app, scenario, perControl, result).then(
          () => true,
          (error: unknown) => (result.problems.push(error instanceof Error ? error.message : String(error)), false),
        ))
      )
        break;
  }
  return result;
}

async function runScenario(app: BenchApp, scenario: Scenario, perControl: number, result: ControlLatencyFigures) {
  const api = app.context.request;
  const loop = await call(api, app.base, "loops.create", {
    goal: `Bench: controls from another tab (${scenario.name})`,
    agent: scenario.agent,
    loop: {
      stop: { maxIterations: 2000, noProgressIterations: 0 },
      completion: { allowNoEvidence: true },
      ...scenario.loop,
    },
  });
  const id = String(loop.id);
  console.error(`  … ${scenario.name}`);
  const [a, b] = [await app.context.newPage(), await app.context.newPage()];
  const nudgeText = async (page: Page) =>
    (await page
      .locator(`${TOOLBAR} button`, { hasText: /^\s*Nudge/ })
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => "")) ?? "";
  try {
    for (const page of [a, b]) await page.goto(`${app.base}/loops/${id}`);
    await a.waitForTimeout(1500);
    const wanted = (c: BenchControl) => result.samples[c].length < perControl;
    const ended = ["completed", "stopped", "failed", "cancelled"];
    const deadline = Date.now() + 10 * 60_000;
    while (Date.now() < deadline) {
      const status = await statusOf(b);
      if (ended.includes(status)) break;
      const pending = (await nudgeText(b)).includes("pending");
      const control = scenario.next(status, pending);
      const remaining = CONTROLS.filter((c) => wanted(c) && usedBy(scenario, c));
      if (remaining.length === 0) break;
      if (control === null || (!wanted(control) && control !== "resume")) {
        await b.waitForTimeout(100);
        continue;
      }
      // Both tabs agree before a click: A's own refetch after the last change is in.
      await until(async () => (await statusOf(a)) === status, 20_000, `tab A to show ${status}`);
      const before = control === "nudge" ? await nudgeText(b) : status;
      const seen = watch(b, control === "nudge" ? "nudge" : "status", before);
      const clickedAt = await send(a, control);
      // A change that never shows is a finding, not a hang: named and the scenario ends.
      const [seenAt, after] = await Promise.race([
        seen,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`${scenario.name}: ${control} never showed in the other tab (from ${before})`)),
            30_000,
          ),
        ),
      ]);
      result.samples[control].push(seenAt - clickedAt);
      result.changes.push(`${control}: ${before}→${after}`);
      await a.waitForTimeout(200);
    }
  } finally {
    await a.close();
    await b.close();
    await call(api, app.base, "loops.controls.terminate", { id, reason: "bench over" }).catch(() => undefined);
  }
}

const wanted = (result: ControlLatencyFigures, perControl: number, c: BenchControl) =>
  result.samples[c].length < perControl;

/** The controls a scenario samples (resume comes with interrupt and kill). */
function usedBy(scenario: Scenario, control: BenchControl): boolean {
  const probe: Record<string, BenchControl | null> = {
    paused: scenario.next("paused", false),
    waiting: scenario.next("waiting", false),
    running: scenario.next("running", false),
    gate: scenario.next("awaiting approval", false),
  };
  return Object.values(probe).includes(control);
}
