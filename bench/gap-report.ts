// Prints the gap figures with their targets and whether each is met.
import type { Breakdown } from "./iteration-breakdown";
import type { GapFigures } from "./e2e-gap";
import { getEnv } from "../server/env";

const spawnHelper = () => getEnv().RALPH_SPAWN_HELPER;
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");
const met = (ok: boolean) => (ok ? "met" : "NOT met");

export const printGap = {
  breakdown(b: Breakdown) {
    console.log("");
    console.log(
      `per-iteration path, command agent that answers at once, in process (${b.iterations} it., ms; spawn helper ${spawnHelper()})`,
    );
    const width = Math.max(...b.parts.map((p) => p.name.length));
    for (const p of b.parts) console.log(`  ${p.name.padEnd(width)}  p50 ${fmt(p.p50)}  p95 ${fmt(p.p95)}`);
    console.log(
      `  ${"gap (script end → next script start)".padEnd(width)}  p50 ${fmt(b.gapP50)}  p99 ${fmt(b.gapP99)}`,
    );
  },
  endToEnd(g: GapFigures | null) {
    console.log("");
    console.log(
      `end-to-end gap through \`next start\`, command agent that answers at once (ms; spawn helper ${spawnHelper()})`,
    );
    if (!g) {
      console.log("  n/a: run `npm run build` first (the bench serves the built app)");
      return;
    }
    const rows = [
      ["figure", "value", "target", ""],
      ["iterations", String(g.iterations), "", ""],
      ["gap: script end → next script start, p50", fmt(g.gap.p50), "", ""],
      ["gap p99 / max", `${fmt(g.gap.p99)} / ${fmt(g.gap.max)}`, "", ""],
      ["agent's own process time (bare spawn → close), p50", fmt(g.bare.p50), "", ""],
      [
        "added by the runtime (gap − agent's time outside its body), p50",
        fmt(g.added.p50),
        "≤ 5",
        met(g.added.p50 <= 5),
      ],
      ["added by the runtime, p99", fmt(g.added.p99), "≤ 20", met(g.added.p99 <= 20)],
      ["iterations/s, one loop", fmt(g.iterations / g.seconds), "", ""],
      ["server RSS / spawn helper RSS (MB)", `${fmt(g.serverRssMb ?? NaN)} / ${fmt(g.helperRssMb ?? NaN)}`, "", ""],
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log("  " + r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
  },
};
