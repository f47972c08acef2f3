import { describe, expect, it } from "vitest";
import { createPrinter, progressLine, runningTotals, summaryLine, table } from "./output";

const loop = {
  id: "L1",
  status: "running",
  health: "healthy",
  iteration: 3,
  maxIterations: 10,
  costUsd: 0.12345,
  budgetUsd: 1,
  lastScore: 0.5,
  bestScore: 0.75,
  stopType: null,
};

/** A stand-in for process.stdout: only what the printer touches. */
const stream = (isTTY: boolean) => {
  let text = "";
  return {
    out: { isTTY, columns: 40, write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream,
    text: () => text,
  };
};

describe("CLI output", () => {
  it("a batch of iterations printed from one read of the loop shows each one's running total (issue 31: stuck)", () => {
    const rows = [
      { number: 4, costUsd: 0.1 },
      { number: 5, costUsd: 0.2 },
      { number: 6, costUsd: 0.05 },
    ];
    // The loop was read after iteration 5: it counts $1.00 spent; iteration 6 was stored after the read.
    const totals = runningTotals({ iteration: 5, costUsd: 1 }, rows);
    expect(totals.map((t) => t.toFixed(2))).toEqual(["0.80", "1.00", "1.05"]);
    const loop = { id: "L", status: "running", health: "healthy", iteration: 5, maxIterations: 10, costUsd: 1 };
    const line = progressLine(loop, { ...rows[0]!, status: "succeeded", meanScore: 0.5 }, totals[0]);
    expect(line).toContain("cost $0.1000 (total $0.8000)");
  });

  it("one progress line per iteration: n/max, outcome, score, cost beside the total and budget, health", () => {
    expect(
      progressLine(loop, {
        number: 3,
        attempt: 2,
        status: "failed",
        meanScore: null,
        costUsd: 0.01,
        health: "degraded",
      }),
    ).toBe("3/10 (attempt 2)  failed  score –  cost $0.0100 (total $0.1235 of $1.0000)  health degraded");
    expect(progressLine(loop)).toBe("3/10  running  score 0.50  cost $0.1235 of $1.0000  health healthy");
    expect(summaryLine({ ...loop, status: "stopped", stopType: "max_iterations" })).toBe(
      "L1 stopped (max_iterations) after 3 iterations, best score 0.75, cost $0.1235",
    );
  });

  it("plain lines when not a terminal; a redrawn status line under them when it is", () => {
    const plain = stream(false);
    const p = createPrinter(plain.out);
    p.status("running · iteration 1/10");
    p.line("1/10 done");
    p.done();
    expect(plain.text()).toBe("1/10 done\n");

    const tty = stream(true);
    const t = createPrinter(tty.out);
    t.status("running · iteration 1/10 and a very long tail that is cut at the width");
    t.line("1/10 done");
    t.status("running · iteration 2/10");
    t.done();
    expect(tty.text()).toBe(
      "\x1b[2mrunning · iteration 1/10 and a very lon\x1b[0m" +
        "\r\x1b[2K1/10 done\n" +
        "\x1b[2mrunning · iteration 2/10\x1b[0m" +
        "\r\x1b[2K",
    );
  });

  it("aligns table columns", () => {
    expect(
      table([
        ["ID", "STATUS"],
        ["abc", "ok"],
        ["a", "running"],
      ]),
    ).toBe("ID   STATUS\nabc  ok\na    running");
  });
});
