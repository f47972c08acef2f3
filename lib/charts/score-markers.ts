// Plateau and regression markers over the mean score, pure so the rules are
// table-tested. A plateau is a run of scored iterations without a new best;
// it is marked once, when the run reaches `plateauAfter`, and its span grows
// while the run lasts. A regression is a drop of `regressionDrop` or more,
// from the previous scored iteration or from the best so far (a slow slide
// counts too), marked once until the score recovers. A downsampled point
// (one with a `span`) counts as the iterations it stands for.
import type { IterationPoint } from "./types";

export interface ScoreMarker {
  iteration: number;
  kind: "plateau" | "regression";
  label: string;
  /** A plateau's first iteration without a new best (for a shaded span). */
  from?: number;
  /** A plateau's last iteration so far. */
  to?: number;
}

export interface ScoreMarkerOptions {
  plateauAfter?: number;
  regressionDrop?: number;
  /** Smaller improvements than this do not count as a new best. */
  epsilon?: number;
}

type Scored = Pick<IterationPoint, "number" | "meanScore" | "span">;

export function scoreMarkers(series: readonly Scored[], options: ScoreMarkerOptions = {}): ScoreMarker[] {
  const plateauAfter = Math.max(1, options.plateauAfter ?? 3);
  const drop = options.regressionDrop ?? 0.1;
  const epsilon = options.epsilon ?? 0.005;
  const markers: ScoreMarker[] = [];
  let best: number | null = null;
  let previous: number | null = null;
  let sinceBest = 0;
  let runStart = 0;
  let plateau: ScoreMarker | null = null;
  let sliding = false;
  for (const p of series) {
    if (p.meanScore === null) continue;
    const mean = p.meanScore;
    // A bucketed point's best is the best of its whole span, not only of its last iteration.
    const top = p.span?.maxScore ?? mean;
    if (best === null || top > best + epsilon) {
      best = best === null ? top : Math.max(best, top);
      sinceBest = 0;
      plateau = null;
    } else {
      // A downsampled point stands for its whole span: a plateau is counted in iterations, not points.
      if (sinceBest === 0) runStart = p.span?.from ?? p.number;
      sinceBest += p.span ? p.span.to - p.span.from + 1 : 1;
      if (!plateau && sinceBest >= plateauAfter) {
        plateau = {
          iteration: p.number,
          kind: "plateau",
          label: `no new best for ${sinceBest} iterations`,
          from: runStart,
          to: p.number,
        };
        markers.push(plateau);
      } else if (plateau) {
        plateau.to = p.number;
        plateau.label = `no new best for ${sinceBest} iterations`;
      }
    }
    const fromPrevious = previous !== null && previous - mean >= drop - 1e-9;
    const fromBest = best - mean >= drop - 1e-9;
    if (fromPrevious) {
      markers.push({
        iteration: p.number,
        kind: "regression",
        label: `mean fell ${previous!.toFixed(2)} → ${mean.toFixed(2)}`,
      });
      sliding = fromBest;
    } else if (fromBest && !sliding) {
      markers.push({
        iteration: p.number,
        kind: "regression",
        label: `mean ${mean.toFixed(2)}, ${(best - mean).toFixed(2)} below the best ${best.toFixed(2)}`,
      });
      sliding = true;
    } else if (!fromBest) sliding = false;
    previous = mean;
  }
  return markers;
}
