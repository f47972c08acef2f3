import { withBenchApp } from "../bench/ui-app";
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[]; hitCount?: number };
await withBenchApp(process.cwd(), 3120, async (app) => {
  const page = await app.context.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  const mode = process.argv[2] ?? "running";
  await page.addInitScript(() => { (window as any).__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) (window as any).__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: "longtask", buffered: true }); });
  if (mode === "load") await cdp.send("Profiler.start");
  await page.goto(`${app.base}/loops/${mode === "finished" ? app.finishedId : app.runningId}`);
  await page.getByTestId("score-chart").waitFor();
  if (mode !== "load") { await page.waitForTimeout(2000); await cdp.send("Profiler.start"); await page.waitForTimeout(10000); }
  else await page.waitForTimeout(3000);
  console.log("longtasks", JSON.stringify(await page.evaluate(() => (window as any).__lt)));
  const { profile } = await cdp.send("Profiler.stop") as { profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] } };
  const self = new Map<number, number>();
  profile.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  // inclusive per frame key
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: Node) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
  const selfBy = new Map<string, number>(); const incl = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!; selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + ms);
    const seen = new Set<string>(); let cur: number | undefined = id;
    while (cur !== undefined) { const k = key(byId.get(cur)!); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + ms); } cur = parent.get(cur); }
  }
  const top = (m: Map<string, number>) => [...m].filter(([k]) => !k.startsWith("(idle)") && !k.startsWith("(root)") && !k.startsWith("(program)")).sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${v.toFixed(1).padStart(8)}  ${k}`).join("\n");
  console.log("SELF\n" + top(selfBy)); console.log("INCL\n" + top(incl));
  const idle = [...self].filter(([id]) => ["(idle)"].includes(byId.get(id)!.callFrame.functionName)).reduce((a, [, v]) => a + v, 0);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`total ${total.toFixed(0)} idle ${idle.toFixed(0)}`);
});
