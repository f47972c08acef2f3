// What one iteration allocates, by function: V8's sampling heap profiler over a
// warm loop of instant-agent iterations (measureOverhead's), counting objects
// the GC has since collected too, since those are what drive the scavenges in
// the in-process overhead's tail. `npx tsx bench/iteration-alloc.ts [iterations]`.
// Not part of `npm run bench`.
import { Session } from "node:inspector/promises";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { measureOverhead } from "./runtime-bench";
const temp = await createTempDatabase("sqlite", "", "probe");
await migrate(temp.target, process.cwd());
const db = openDatabase(temp.target, { poolSize: 20 });
await measureOverhead(db, 200);
const s = new Session();
s.connect();
await s.post("HeapProfiler.startSampling", {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
const N = Number(process.argv[2] ?? 1000);
await measureOverhead(db, N);
const { profile } = (await s.post("HeapProfiler.stopSampling")) as { profile: { head: Node } };
type Node = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
};
const self = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0;
function walk(n: Node, stack: string[]): number {
  const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/^file:\/\//, "").replace(`${process.cwd()}/`, "")}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + n.selfSize);
  total += n.selfSize;
  let sum = n.selfSize;
  for (const c of n.children) sum += walk(c, [...stack, key]);
  if (!stack.includes(key)) incl.set(key, (incl.get(key) ?? 0) + sum);
  return sum;
}
walk(profile.head, []);
console.log("total KB per iteration", (total / N / 1024).toFixed(1));
const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([k, v]) => `${(v / N / 1024).toFixed(1).padStart(7)} KB  ${k}`)
    .join("\n");
console.log("SELF\n" + top(self));
console.log(
  "INCLUSIVE (repo frames)\n" +
    top(new Map([...incl].filter(([k]) => /server\/|bench\//.test(k) && !k.includes("node_modules")))),
);
await db.close();
await temp.drop();
