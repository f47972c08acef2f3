// The race compare chart: each contender's mean score per iteration on one x axis, so the curves
// show who got there first. One row per iteration number, one key per contender (`c:<loop id>`);
// a killed attempt (interrupted) is left out and a re-run of the same number replaces it, as the
// loop page's score chart does.

export interface RacePoint {
  number: number;
  attempt: number;
  status: string;
  meanScore: number | null;
}

export interface RaceSeriesInput {
  id: string;
  points: readonly RacePoint[];
}

export interface RaceChartRow {
  iteration: number;
  [contender: `c:${string}`]: number | null;
}

export const contenderKey = (id: string) => `c:${id}` as const;

/** Each iteration number's last attempt that finished (not interrupted). */
function finishedScores(points: readonly RacePoint[]): Map<number, number | null> {
  const byNumber = new Map<number, { attempt: number; score: number | null }>();
  for (const p of points) {
    if (p.status === "interrupted") continue;
    const seen = byNumber.get(p.number);
    if (!seen || p.attempt > seen.attempt) byNumber.set(p.number, { attempt: p.attempt, score: p.meanScore });
  }
  return new Map([...byNumber].map(([n, v]) => [n, v.score]));
}

export function prepareRaceChart(contenders: readonly RaceSeriesInput[]): RaceChartRow[] {
  const scores = contenders.map((c) => ({ key: contenderKey(c.id), byNumber: finishedScores(c.points) }));
  const last = Math.max(0, ...scores.flatMap((s) => [...s.byNumber.keys()]));
  const rows: RaceChartRow[] = [];
  for (let n = 1; n <= last; n++) {
    const row: RaceChartRow = { iteration: n };
    for (const s of scores) row[s.key] = s.byNumber.get(n) ?? null;
    rows.push(row);
  }
  return rows;
}

/** A stable color per contender position (colorblind-safe Okabe–Ito order). */
export const CONTENDER_COLORS = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#F0E442",
  "#000000",
];
export const contenderColor = (index: number) => CONTENDER_COLORS[index % CONTENDER_COLORS.length]!;
