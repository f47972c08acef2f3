// The shared report's charts: score (per scorer, mean, best-so-far, threshold,
// handoffs, markers), cumulative cost against budget with the forecast, tokens
// stacked, and health bands. Server-rendered SVG from the same prep functions.
import { prepareCostChart, prepareTokenChart } from "@/lib/charts/cost-chart";
import { healthBands } from "@/lib/charts/health-timeline";
import { prepareScoreChart, scorerKey } from "@/lib/charts/score-chart";
import type { ChartEvent, IterationPoint } from "@/lib/charts/types";
import {
  BEST,
  BUDGET,
  FORECAST,
  HANDOFF,
  HEALTH_COLORS,
  MEAN,
  PALETTE,
  THRESHOLD,
} from "@/components/loop-detail/charts/chart-theme";
import { formatTokens, formatUsd } from "@/components/loops/format";
import type { SharedReport } from "@/components/shared/api-types";
import { SvgLegend, SvgLineChart } from "./svg-chart";
import {
  costSummary,
  healthSummary,
  scoreSummary,
  tokenSummary,
} from "@/components/loop-detail/charts/chart-summaries";

/** A chart with the same plain-language summary as on the loop page, in text. */
function Frame({
  title,
  summary,
  children,
  testId,
}: {
  title: string;
  summary: string;
  children: React.ReactNode;
  testId: string;
}) {
  return (
    <figure
      data-testid={testId}
      className="report-chart min-w-0 break-inside-avoid rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold">{title}</span>
        <span className="text-xs text-slate-600 dark:text-slate-400" data-testid={`${testId}-summary`}>
          {summary}
        </span>
      </figcaption>
      {children}
    </figure>
  );
}

export function ReportCharts({ report }: { report: SharedReport }) {
  const series = report.series as IterationPoint[];
  if (series.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">No iterations ran, so there is nothing to chart.</p>
    );
  const numbers = series.map((s) => s.number);
  const xDomain: [number, number] = [Math.min(...numbers) - 0.5, Math.max(...numbers) + 0.5];
  // Operator-forced handoffs exist only as events: pass them so the report marks them too.
  const score = prepareScoreChart(series, {
    threshold: report.config?.stop.scoreThreshold ?? null,
    events: (report.markers ?? []) as ChartEvent[],
  });
  const ended = report.loop.isTerminal;
  const cost = prepareCostChart(series, { budget: report.loop.budgetUsd, forecast: ended ? null : report.forecast });
  const tokens = prepareTokenChart(series);
  const bands = healthBands(series);
  const handoffRules = score.handoffs.map((h) => ({ at: h + 0.5, label: "⇄", color: HANDOFF }));
  const costTop =
    Math.max(cost.budget ?? 0, ...cost.rows.map((r) => Math.max(r.cost ?? 0, r.forecast ?? 0))) * 1.1 || 0.01;
  const costX: [number, number] = [xDomain[0], Math.max(xDomain[1], ...cost.rows.map((r) => r.iteration + 0.5))];
  const tokenTop = Math.max(1, ...tokens.map((t) => t.input + t.output + t.cache)) * 1.1;

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Frame title="Score per iteration" summary={scoreSummary(score)} testId="report-score-chart">
        <SvgLineChart
          title={`Score per iteration: ${scoreSummary(score)}`}
          xDomain={xDomain}
          yDomain={[0, 1]}
          yFormat={(v) => v.toFixed(1)}
          hRules={score.threshold !== null ? [{ at: score.threshold, label: "threshold", color: THRESHOLD }] : []}
          vRules={[
            ...handoffRules,
            ...score.markers.map((m) => ({
              at: m.iteration,
              label: m.kind === "plateau" ? "▬" : "▼",
              color: m.kind === "plateau" ? "#f59e0b" : "#e11d48",
            })),
          ]}
          series={[
            {
              name: "best so far",
              color: BEST,
              points: score.rows.map((r) => ({ x: r.iteration, y: r.best })),
              dashed: true,
            },
            ...score.scorers.map((s, i) => ({
              name: s,
              color: PALETTE[i % PALETTE.length]!,
              points: score.rows.map((r) => ({ x: r.iteration, y: r[scorerKey(s)] ?? null })),
              width: 1.25,
            })),
            { name: "mean", color: MEAN, points: score.rows.map((r) => ({ x: r.iteration, y: r.mean })), width: 2.5 },
          ]}
        />
        <SvgLegend
          items={[
            { name: "mean", color: MEAN },
            { name: "best so far", color: BEST, dashed: true },
            ...score.scorers.map((s, i) => ({ name: s, color: PALETTE[i % PALETTE.length]! })),
          ]}
        />
      </Frame>
      <Frame
        title="Cumulative cost"
        summary={costSummary(cost, ended ? null : report.forecast)}
        testId="report-cost-chart"
      >
        <SvgLineChart
          title={`Cumulative cost: ${costSummary(cost, ended ? null : report.forecast)}`}
          xDomain={costX}
          yDomain={[0, costTop]}
          yFormat={formatUsd}
          hRules={cost.budget ? [{ at: cost.budget, label: "budget", color: BUDGET }] : []}
          vRules={handoffRules}
          series={[
            { name: "spent", color: MEAN, points: cost.rows.map((r) => ({ x: r.iteration, y: r.cost })), width: 2 },
            {
              name: "forecast",
              color: FORECAST,
              points: cost.rows.map((r) => ({ x: r.iteration, y: r.forecast })),
              dashed: true,
            },
          ]}
        />
        <SvgLegend
          items={[
            { name: "spent", color: MEAN },
            ...(cost.rows.some((r) => r.forecast !== null)
              ? [{ name: "forecast", color: FORECAST, dashed: true }]
              : []),
          ]}
        />
      </Frame>
      <Frame title="Tokens per iteration" summary={tokenSummary(tokens)} testId="report-token-chart">
        <SvgLineChart
          title={`Tokens per iteration: ${tokenSummary(tokens)}`}
          xDomain={xDomain}
          yDomain={[0, tokenTop]}
          yFormat={formatTokens}
          vRules={handoffRules}
          series={[]}
          bars={tokens.map((t) => ({
            x: t.iteration,
            stack: [
              { value: t.input, color: "#0ea5e9" },
              { value: t.output, color: "#a855f7" },
              { value: t.cache, color: "#14b8a6" },
            ],
          }))}
        />
        <SvgLegend
          items={[
            { name: "in", color: "#0ea5e9" },
            { name: "out", color: "#a855f7" },
            { name: "cache", color: "#14b8a6" },
          ]}
        />
      </Frame>
      <Frame title="Health timeline" summary={healthSummary(bands)} testId="report-health-chart">
        <svg viewBox="0 0 640 40" role="img" aria-label={`Health: ${healthSummary(bands)}`} className="h-auto w-full">
          {bands.map((b) => {
            const span = xDomain[1] - xDomain[0];
            const x0 = ((b.from - 0.5 - xDomain[0]) / span) * 640;
            const x1 = ((b.to + 0.5 - xDomain[0]) / span) * 640;
            return (
              <rect
                key={b.from}
                x={x0}
                width={Math.max(1, x1 - x0)}
                y={4}
                height={32}
                fill={HEALTH_COLORS[b.state] ?? HEALTH_COLORS.unknown}
                opacity={0.7}
              />
            );
          })}
        </svg>
        <SvgLegend
          items={[...new Set(bands.map((b) => b.state))].map((s) => ({
            name: s,
            color: HEALTH_COLORS[s] ?? "#94a3b8",
          }))}
        />
      </Frame>
    </div>
  );
}
