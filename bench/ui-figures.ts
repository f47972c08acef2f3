// The browser figures of `npm run bench`: the loop page's idle main-thread
// time, the list's layout shift on a phone, a control's latency from one tab
// to another, and Lighthouse performance of the loop page, each printed with
// its target and whether it is met. `only` (from `--only=control,idle,...`)
// picks some of them.
import { withBenchApp } from "./ui-app";
import { measureUiIdle } from "./ui-idle";
import { measureListCls } from "./list-cls";
import { measureLighthouse, type LighthouseScore } from "./lighthouse-bench";
import { CONTROLS, measureControlLatency, type ControlLatencyFigures } from "./control-latency";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";

export const UI_FIGURES = ["idle", "cls", "control", "lighthouse"] as const;
export type UiFigure = (typeof UI_FIGURES)[number];

/** The p-th percentile (nearest rank). */
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function line(label: string, value: number, digits: number, target: string, met: boolean, detail = "") {
  const shown = Number.isFinite(value) ? value.toFixed(digits) : "n/a";
  console.log(
    `  ${label.padEnd(34)}${shown.padStart(7)}  target ${target.padEnd(7)} ${Number.isFinite(value) ? (met ? "met" : "NOT MET") : ""}${detail ? `  ${detail}` : ""}`,
  );
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A run, or why it failed. Lighthouse's own trace failures (NO_NAVSTART: "run Lighthouse again") get one retry. */
async function lighthouseOr(run: () => Promise<LighthouseScore>): Promise<LighthouseScore | string> {
  try {
    return await run();
  } catch (first) {
    console.error(`  Lighthouse run failed, retrying once: ${message(first)}`);
    return run().catch((error: unknown) => `failed twice: ${message(first)}; then ${message(error)}`);
  }
}

export async function printUiFigures(
  root: string,
  port = 3290,
  only: readonly UiFigure[] = UI_FIGURES,
  /** Lighthouse runs per page and form factor; the figure is their median (one run swings with the load). */
  lighthouseRuns = 1,
  /**
   * The control figure again on PostgreSQL (about 7 minutes here): with `--ui` or `--only=`, not in the
   * default run, which must finish in under 20 minutes on a 2-core machine (issue 33).
   */
  controlOnPostgresToo = true,
) {
  console.error("… browser figures (built app, Chromium)");
  const figures = await withBenchApp(root, port, async (app) => {
    const step = <T>(figure: UiFigure, what: string, run: () => Promise<T>) =>
      only.includes(figure) ? (console.error(`… ${what}`), run()) : null;
    const idle = await step("idle", "loop page idle main-thread time", () => measureUiIdle(app));
    const cls = await step("cls", "list layout shift at 390 px", () => measureListCls(app));
    const control = await step("control", "a control from one tab to another", () =>
      measureControlLatency(app, CONTROL_CLICKS),
    );
    const lh: Record<string, (LighthouseScore | string)[]> = {};
    for (const [name, id] of [
      ["finished", app.finishedId],
      ["running", app.runningId],
    ] as const)
      for (const form of ["desktop", "mobile"] as const) {
        if (!only.includes("lighthouse")) continue;
        const runs: (LighthouseScore | string)[] = (lh[`${name}, ${form}`] = []);
        for (let run = 0; run < lighthouseRuns; run++) {
          console.error(`… Lighthouse, ${name} loop, ${form}, run ${run + 1} of ${lighthouseRuns}`);
          runs.push(await lighthouseOr(() => measureLighthouse(app, `/loops/${id}`, form, `${name}-${form}`)));
        }
      }
    return { idle, cls, control, lh };
  }).catch((error: unknown) => {
    console.error(`  browser figures: ${String(error)}`);
    return undefined;
  });

  console.log("");
  console.log("browser figures (medians; samples in brackets)");
  if (figures === null) return console.log("  n/a: run `npm run build` first (the bench serves the built app)");
  if (!figures) return console.log("  n/a: the browser bench failed (see above)");
  const { idle, cls, control, lh } = figures;
  const samples = (xs: number[], digits: number) => `[${xs.map((x) => x.toFixed(digits)).join(", ")}]`;
  for (const [name, target] of [
    ["finished", 60],
    ["running", 300],
  ] as const) {
    if (!idle) break;
    const task = idle[name].map((x) => x.taskMs);
    const cpu = idle[name].map((x) => x.cpuMs);
    const m = median(task);
    line(
      `idle 10 s, ${name} loop (ms)`,
      m,
      0,
      `< ${target}`,
      m < target,
      `${samples(task, 0)}; CPU ${median(cpu).toFixed(0)} ms ${samples(cpu, 0)}`,
    );
  }
  if (cls) {
    const c = median(cls);
    line("list CLS, 390 px", c, 3, "< 0.1", c < 0.1, samples(cls, 3));
  }
  const controlLines = (db: string, figures: ControlLatencyFigures | string | null) => {
    if (typeof figures === "string") return console.log(`  control, tab to tab, ${db}: n/a (${figures})`);
    if (!figures) return;
    for (const problem of figures.problems) console.log(`  control, ${db}: ${problem}`);
    for (const name of CONTROLS) {
      const xs = figures.samples[name];
      const [p50, p95] = [percentile(xs, 50), percentile(xs, 95)];
      const max = xs.length ? Math.max(...xs) : NaN;
      line(
        `${name} → other tab p95, ${db} (ms)`,
        p95,
        0,
        "< 300",
        p95 < 300,
        `p50 ${p50.toFixed(0)}, max ${max.toFixed(0)}, n ${xs.length}`,
      );
    }
  };
  controlLines("SQLite", control);
  if (only.includes("control") && controlOnPostgresToo)
    controlLines("PostgreSQL", await controlOnPostgres(root, port + 1));
  else if (only.includes("control"))
    console.log(
      "  control, tab to tab, PostgreSQL: run `npm run bench -- --ui --only=control` (left out of the default run)",
    );
  for (const [name, runs] of Object.entries(lh)) {
    const target = name.endsWith("desktop") ? 90 : 80;
    const ok = runs.filter((r): r is LighthouseScore => typeof r !== "string");
    const failed = runs.filter((r): r is string => typeof r === "string");
    if (ok.length === 0) {
      console.log(`  Lighthouse perf, ${name.padEnd(17)}    n/a  ${failed[0] ?? "not run"}`);
      continue;
    }
    const m = (pick: (r: LighthouseScore) => number) => median(ok.map(pick));
    const score = m((r) => r.score);
    line(
      `Lighthouse perf, ${name}`,
      score,
      0,
      `>= ${target}`,
      score >= target,
      `${samples(
        ok.map((r) => r.score),
        0,
      )} TBT ${m((r) => r.tbtMs).toFixed(0)} ms, LCP ${m((r) => r.lcpMs).toFixed(0)} ms, CLS ${m((r) => r.cls).toFixed(3)}, ` +
        `JS ${m((r) => r.scriptKb).toFixed(0)} KB, bootup ${m((r) => r.bootupMs).toFixed(0)} ms, ` +
        `benchmarkIndex ${m((r) => r.benchmarkIndex).toFixed(0)}${failed.length ? `; ${failed.length} failed` : ""}`,
    );
  }
}

/** --control-clicks=N: clicks per control and database (default 50, as the issue asks; fewer for a quick look). */
const CONTROL_CLICKS = Number(process.argv.find((a) => a.startsWith("--control-clicks="))?.slice(17) ?? 50);

/** The control figure again with the app on a fresh PostgreSQL database (the other figures are SQLite's). */
async function controlOnPostgres(root: string, port: number): Promise<ControlLatencyFigures | string | null> {
  console.error("… a control from one tab to another, on PostgreSQL");
  const temp = await createTempDatabase("postgresql", getEnv().RALPH_PG_ADMIN_URL, "bench_ui").catch((error: unknown) =>
    message(error),
  );
  if (typeof temp === "string") return temp;
  try {
    return await withBenchApp(root, port, (app) => measureControlLatency(app, CONTROL_CLICKS), temp.target.url);
  } catch (error) {
    return message(error);
  } finally {
    await temp.drop().catch(() => undefined);
  }
}
