// Where the loop page's initial load spends the main thread: a JS CPU profile
// from navigation to `--seconds` later, self time by script (chunk) and by
// function, and the long tasks. For reading, not asserting:
// `npx tsx bench/load-profile.ts [--port=3290] [--seconds=8] [--loop=running] [--cpu=4] [--out=DIR]`
// after `npm run build` (`--cpu` throttles the CPU as Lighthouse's mobile preset does).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withBenchApp } from "./ui-app";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const port = Number(arg("port") ?? 3290);
const seconds = Number(arg("seconds") ?? 8);
const cpu = Number(arg("cpu") ?? 1);
const out = arg("out");
const loop = arg("loop") === "running" ? "running" : "finished";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const top = (m: Map<string, number>, n = 25) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

await withBenchApp(process.cwd(), port, async (app) => {
  const page = await app.context.newPage();
  const cdp = await app.context.newCDPSession(page);
  if (cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Performance.enable");
  const longTasks: number[] = [];
  await page.addInitScript(() => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        ((window as unknown as { __long?: number[] }).__long ??= []).push(Math.round(e.duration));
    }).observe({ type: "longtask", buffered: true });
  });
  await cdp.send("Profiler.start");
  const started = Date.now();
  await page.goto(`${app.base}/loops/${loop === "running" ? app.runningId : app.finishedId}`);
  await page.waitForTimeout(Math.max(0, seconds * 1000 - (Date.now() - started)));
  const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
  const metrics = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  longTasks.push(
    ...((await page.evaluate(() => (window as unknown as { __long?: number[] }).__long ?? [])) as number[]),
  );
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!node) return;
    const script = node.callFrame.url.split("/").pop() || `(${node.callFrame.functionName || "native"})`;
    if (script === "(idle)" || script === "(program)") return void add(byScript, script, ms);
    add(byScript, script, ms);
    add(byFunction, `${node.callFrame.functionName || "(anonymous)"} ${script}:${node.callFrame.columnNumber}`, ms);
  });
  const m = Object.fromEntries(metrics.metrics.map((x) => [x.name, x.value]));
  console.log(
    `${loop} loop, ${seconds} s from navigation, CPU ×${cpu}: TaskDuration ${((m.TaskDuration ?? 0) * 1000).toFixed(0)} ms, ` +
      `ScriptDuration ${((m.ScriptDuration ?? 0) * 1000).toFixed(0)} ms, LayoutDuration ${((m.LayoutDuration ?? 0) * 1000).toFixed(0)} ms, ` +
      `RecalcStyleDuration ${((m.RecalcStyleDuration ?? 0) * 1000).toFixed(0)} ms`,
  );
  console.log(`long tasks (ms): ${longTasks.join(", ") || "none"}`);
  console.log("self time by script (ms):");
  for (const [k, v] of top(byScript, 15)) console.log(`  ${v.toFixed(0).padStart(6)}  ${k}`);
  console.log("self time by function (ms):");
  for (const [k, v] of top(byFunction, 30)) console.log(`  ${v.toFixed(0).padStart(6)}  ${k}`);
  if (out) {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `load-${loop}.cpuprofile`), JSON.stringify(profile));
  }
});
process.exit(0);
