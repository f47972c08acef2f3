// Starting a race (docs/races.md): every contender's definition is checked first (policy, evidence,
// preflight), so a race whose third contender is refused starts nobody; then the race row, one draft
// loop per contender (each with its loop_created audit event naming the race), and the starts.
import { insertRace } from "../db/races.repo";
import { checkedDefinition, createCheckedLoop, startLoop } from "./loop-create.service";
import { contenderDefinitions, type RaceDefinition } from "./race-definition";
import type { ActingAs, LoopServices } from "./loop-services";

export async function createRace(svc: LoopServices, race: RaceDefinition, start: boolean, acting: ActingAs) {
  const definitions = [];
  for (const definition of contenderDefinitions(race)) {
    definitions.push(await checkedDefinition(svc, definition, start, acting));
  }
  const raceId = svc.engine.newId();
  await insertRace(svc.db.prisma, {
    id: raceId,
    name: race.name,
    goal: race.goal,
    policy: race.policy,
    targetBranch: race.targetBranch || null,
    createdById: acting.actor.id,
    createdAt: new Date(svc.engine.now()),
  });
  const loopIds: string[] = [];
  for (const definition of definitions) {
    loopIds.push((await createCheckedLoop(svc, definition, false, acting, raceId)).id);
  }
  if (start) {
    const why = { ...acting, reason: acting.reason ?? `race ${race.name || raceId} started` };
    for (const id of loopIds) await startLoop(svc, id, why);
  }
  return { id: raceId, loopIds };
}
