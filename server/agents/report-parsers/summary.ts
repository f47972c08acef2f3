/**
 * Reads every runner dialect over the same stream of lines and keeps the one
 * whose final summary appeared (the detected runner's first, when known).
 * Counts come from the summary line; names from what each runner prints
 * before it. Used where a runner wrote no machine-readable report.
 */
import { type ParsedReport, stripAnsi } from "./report";
import type { SummaryDialect } from "./summary-dialect";
import { JestDialect, MochaDialect, NodeSpecDialect, VitestDialect } from "./summary-js";
import { CargoDialect, GoDialect, PytestDialect } from "./summary-native";

export class SummaryScanner {
  private readonly dialects: SummaryDialect[] = [
    new PytestDialect(),
    new CargoDialect(),
    new JestDialect(),
    new VitestDialect(),
    new MochaDialect(),
    new NodeSpecDialect(),
    new GoDialect(),
  ];

  line(raw: string) {
    const line = stripAnsi(raw).replace(/\r$/, "");
    for (const d of this.dialects) d.line(line);
  }

  /** `prefer`: the detected runner ("vitest", "pytest", ...), tried first. */
  finish(prefer?: string | null): ParsedReport | null {
    const ordered = [...this.dialects].sort((a, b) => Number(b.id === prefer) - Number(a.id === prefer));
    const chosen = ordered.find((d) => d.seen) ?? ordered.find((d) => d.partial);
    if (chosen) {
      const b = chosen.result()!;
      const report = b.build("summary", chosen.seen, chosen.id);
      const named = report.failures.length + report.moreFailures;
      report.moreFailures += Math.max(0, report.failed + report.errored - named);
      return report;
    }
    return null;
  }
}

export function parseSummary(text: string, prefer?: string | null): ParsedReport | null {
  const s = new SummaryScanner();
  for (const line of text.split("\n")) s.line(line);
  return s.finish(prefer);
}
