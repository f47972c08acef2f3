// The step write of one finished iteration, as the runtime commits it: shared
// by the db tests that drive the step commit directly.
import type { StepWrite } from "../server/db/loop-steps.repo";

/** Iteration `n` of `loopId` succeeded, fenced by `owner`'s lease; `at` stamps every time (default: now). */
export function iterationStep(loopId: string, n: number, owner: string, at?: Date): StepWrite {
  const when = () => at ?? new Date();
  return {
    loopId,
    fence: { owner },
    loop: { iteration: n, lastActivityAt: when() },
    ended: false,
    iteration: {
      row: {
        id: `${loopId}:${n}`,
        number: n,
        status: "succeeded",
        agentId: "a",
        input: "",
        startedAt: when(),
        finishedAt: when(),
      },
      attempt: 1,
    },
    nextInflight: { number: n + 1, at: when() },
    events: [{ loopId, type: "iteration_completed", payload: { n } }],
    acks: [],
  };
}
