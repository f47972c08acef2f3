// Example loops so the product explains itself in the first minute: one
// running, one completed, one awaiting approval, one stopped on budget. They
// really run (demo agent, real runtime); only the running one is left to the
// app to continue.
import { demoLoopPreset } from "../agents/demo.preset";
import { LOCAL_OPERATOR } from "../auth/actor";
import { countLoops, loopOutcomes, queueDraftLoop } from "../db/loops.repo";
import { createLoopFromDefinition } from "./loop-create.service";
import { loopDefinitionSchema, type LoopDefinitionInput } from "./loop-definition";
import type { LoopServices } from "./loop-services";

const acting = { actor: LOCAL_OPERATOR, reason: "demo seed" };

function demo(
  name: string,
  goal: string,
  seed: number,
  loop: Record<string, unknown>,
  delayMs = 0,
): LoopDefinitionInput {
  const preset = demoLoopPreset(goal, { seed, delayMs });
  return {
    name,
    goal,
    agent: preset.agent,
    scorers: preset.scorers,
    verifier: preset.verifier,
    reflector: preset.reflector,
    loop: { ...preset.loop, ...loop },
  };
}

export const SEED_LOOPS = {
  completed: demo(
    "Demo: session migration plan",
    "Write a migration plan for moving user sessions from cookies to signed tokens, with rollout and rollback steps",
    42,
    {},
  ),
  approval: demo(
    "Demo: API deprecation notice (needs approval)",
    "Draft a deprecation notice for the v1 reports API with timeline, alternatives and support contacts",
    7,
    {
      approvals: { periodic: { every: 3, deadline: 0, defaultAction: "approve" } },
    },
  ),
  budget: demo(
    "Demo: incident postmortem (budget-capped)",
    "Write a postmortem for the checkout outage covering timeline, root cause, impact and follow-up actions",
    11,
    {
      budget: { maxCostUsd: 0.03, throttleAt: 0.95 },
      stop: { maxIterations: 30, scoreThreshold: 0.99, noProgressIterations: 0 },
    },
  ),
  running: demo(
    "Demo: onboarding guide (live)",
    "Write an onboarding guide for new backend engineers covering setup, services, deploys and on-call",
    3,
    {
      stop: { maxIterations: 40, scoreThreshold: 0.99, noProgressIterations: 0 },
      pacing: { delayMs: 4000 },
    },
    1500,
  ),
} satisfies Record<string, LoopDefinitionInput>;

/**
 * Creates the demo loops and runs all but the live one to where they stop.
 *
 * @param services whose dispatcher runs loops in this process (the caller
 *   composes an in-process runtime), so the seeded states are real ones.
 * @param settle resolves once every dispatched loop has stopped running.
 */
export async function seedDemoLoops(
  services: LoopServices,
  settle: () => Promise<void>,
  log: (m: string) => void = () => undefined,
) {
  const { db } = services;
  if ((await countLoops(db.prisma, {})) > 0)
    throw new Error("the database already has loops; seed:demo only fills an empty database");
  const ids: Record<string, string> = {};
  for (const [key, definition] of Object.entries(SEED_LOOPS)) {
    // The live one is left queued for the app's runtime to pick up.
    const start = key !== "running";
    ids[key] = (await createLoopFromDefinition(services, loopDefinitionSchema.parse(definition), start, acting)).id;
    log(`created ${key}: ${definition.name}`);
  }
  await settle();
  await queueDraftLoop(db.prisma, ids.running!);
  for (const r of await loopOutcomes(db.prisma))
    log(`  ${r.status.padEnd(18)} ${String(r.iteration).padStart(2)} it.  ${r.stopType ?? ""}  ${r.name}`);
  return ids;
}
