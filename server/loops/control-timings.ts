// Server-side timings of one operator control (RALPH_CONTROL_TIMINGS=true):
// how long each step took (read the target, restore its snapshot, the write,
// which includes any wait for the loop row's lock), so the latency a bench
// measures in another tab can be split into its parts. Off: no clock reads.
import { getEnv } from "../env";

export interface ControlTimings {
  /** Marks the end of a step, named by what it did. */
  mark(step: string): void;
  /** Logs the steps once, with the outcome. */
  done(fields: Record<string, unknown>): void;
}

const OFF: ControlTimings = { mark() {}, done() {} };

export function startControlTimings(loopId: string, kind: string): ControlTimings {
  if (!getEnv().RALPH_CONTROL_TIMINGS) return OFF;
  const started = performance.now();
  let last = started;
  const steps: [string, number][] = [];
  return {
    mark(step) {
      const now = performance.now();
      steps.push([step, Math.round(now - last)]);
      last = now;
    },
    done(fields) {
      const totalMs = Math.round(performance.now() - started);
      console.info(JSON.stringify({ control: kind, loopId, totalMs, steps: Object.fromEntries(steps), ...fields }));
    },
  };
}
