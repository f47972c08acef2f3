// The step write of one finished iteration, as the runtime commits it, and a
// running loop to commit it to: shared by the db tests that drive the step
// commit directly.
import { randomUUID } from "node:crypto";
import type { Db } from "../server/db/client";
import type { StepWrite } from "../server/db/step-write";

/** A running loop whose lease `lease` holds until `leaseUntil` (none when `lease` is null). */
export async function runningLoop(prisma: Db, lease: string | null, leaseUntil: Date): Promise<string> {
  const id = randomUUID();
  await prisma.loop.create({
    data: {
      id,
      goal: "g",
      agentKind: "command",
      config: { a: 1 },
      status: "running",
      leaseOwner: lease,
      leaseExpiresAt: lease ? leaseUntil : null,
      inflightAgent: { group: 1 },
    },
  });
  return id;
}

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
