// Summarises a V8 .cpuprofile: self time by function and by package/area,
// to read where a bench's CPU goes (`tsx bench/profile-summary.ts <file>`).
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = process.argv[2];
if (!file) throw new Error("usage: profile-summary <file.cpuprofile>");
const profile = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const area = (url: string) => {
  if (!url) return "(native/idle/gc)";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith("node:")) return url;
  if (url.includes("/.next/server/chunks/")) return ".next chunk: " + url.split("/").pop();
  return url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
};
const sum = (key: (n: Node) => string) => {
  const acc = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const k = key(n);
    acc.set(k, (acc.get(k) ?? 0) + ms);
  }
  return [...acc.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
};
console.log(`total sampled ${total.toFixed(0)} ms`);
console.log("\nby area (self ms)");
for (const [k, v] of sum((n) => area(n.callFrame.url))) console.log(`  ${v.toFixed(0).padStart(7)}  ${k}`);
console.log("\nby function (self ms)");
for (const [k, v] of sum(
  (n) => `${n.callFrame.functionName || "(anon)"} ${area(n.callFrame.url)}:${n.callFrame.lineNumber}`,
))
  console.log(`  ${v.toFixed(0).padStart(7)}  ${k}`);
