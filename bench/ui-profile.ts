// Where the running loop page's idle main-thread time goes: one window of
// `--seconds` on the bench app's running demo loop, with the requests the
// page made, the main thread's trace events by name (script, style, layout,
// paint) and a JS CPU profile summarised by function. For reading, not
// asserting: `npx tsx bench/ui-profile.ts [--port=3290] [--seconds=10] [--windows=N] [--loop=finished] [--out=DIR]`
// after `npm run build`; `--out` keeps the .cpuprofile and the trace.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withBenchApp } from "./ui-app";
import { idleMainThread } from "../e2e/support/idle-cpu";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const port = Number(arg("port") ?? 3290);
const seconds = Number(arg("seconds") ?? 10);
const out = arg("out");
const windows = Number(arg("windows") ?? 0);
const loop = arg("loop") === "finished" ? "finished" : "running";

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { url?: string; functionName?: string } };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

const top = (m: Map<string, number>, n = 25) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

await withBenchApp(process.cwd(), port, async (app) => {
  const page = await app.context.newPage();
  await page.goto(`${app.base}/loops/${loop === "running" ? app.runningId : app.finishedId}`);
  await page.getByTestId("score-chart").waitFor();
  await page.waitForTimeout(3000);
  // Where the parts sit against the 900 px viewport (off-screen parts should cost little).
  for (const id of ["score-chart", "token-chart", "health-timeline", "live-iteration", "iteration"]) {
    const box = await page
      .getByTestId(id)
      .first()
      .boundingBox()
      .catch(() => null);
    console.log(`${id}: ${box ? `y ${box.y.toFixed(0)}–${(box.y + box.height).toFixed(0)}` : "absent"}`);
  }
  // Plain windows first (the profiler and the trace cost main-thread time themselves).
  for (let i = 0; i < windows; i++) {
    const w = await idleMainThread(page, seconds * 1000);
    console.log(`plain window ${i + 1}: TaskDuration ${w.taskMs.toFixed(0)} ms, CPU ${w.cpuMs.toFixed(0)} ms`);
  }

  const requests: string[] = [];
  page.on("request", (r) => requests.push(new URL(r.url()).pathname + "?" + (new URL(r.url()).search.length > 0)));
  const cdp = await app.context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  const metric = async (name: string) =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === name)?.value ?? NaN;
  await app.browser.startTracing(page, {
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"],
  });
  await cdp.send("Profiler.start");
  const task0 = await metric("TaskDuration");
  const iter0 = await page.locator("ol[aria-label^='Iterations'] > li").count();
  await page.waitForTimeout(seconds * 1000);
  const task1 = await metric("TaskDuration");
  const iter1 = await page.locator("ol[aria-label^='Iterations'] > li").count();
  const { profile } = await cdp.send("Profiler.stop");
  const trace = JSON.parse((await app.browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };

  console.log(`TaskDuration over ${seconds} s: ${((task1 - task0) * 1000).toFixed(0)} ms`);
  console.log(`iteration rows: ${iter0} → ${iter1}`);
  const byPath = new Map<string, number>();
  for (const r of requests) add(byPath, r, 1);
  console.log("\nrequests");
  for (const [k, v] of top(byPath)) console.log(`  ${String(v).padStart(4)}  ${k}`);

  // Main thread of the renderer: the thread that ran the page's RunTask events with most time.
  const runTask = new Map<string, number>();
  for (const e of trace.traceEvents)
    if (e.ph === "X" && e.name === "RunTask") add(runTask, `${e.pid}:${e.tid}`, e.dur ?? 0);
  const main = top(runTask, 1)[0]?.[0];
  const byName = new Map<string, number>();
  for (const e of trace.traceEvents)
    if (e.ph === "X" && `${e.pid}:${e.tid}` === main) add(byName, e.name, (e.dur ?? 0) / 1000);
  console.log("\nmain-thread trace events (inclusive ms)");
  for (const [k, v] of top(byName, 20)) console.log(`  ${v.toFixed(1).padStart(8)}  ${k}`);

  const nodes = profile.nodes as ProfileNode[];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const n = byId.get(id)!;
    const file = n.callFrame.url.split("/").pop() ?? "";
    add(
      self,
      `${n.callFrame.functionName || "(anon)"} ${file}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`,
      (profile.timeDeltas?.[i] ?? 0) / 1000,
    );
  });
  console.log("\nJS self time by function (ms)");
  for (const [k, v] of top(self, 30)) console.log(`  ${v.toFixed(1).padStart(8)}  ${k}`);

  if (out) {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "page.cpuprofile"), JSON.stringify(profile));
    writeFileSync(join(out, "trace.json"), JSON.stringify(trace));
  }
  await page.close();
});
