// What the loop use cases need: storage, a way to get loops run, and the
// clock/ids (injected, so tests control them).
import type { Deps } from "../engine";
import type { Database } from "../db/client";
import type { Dispatcher } from "../jobs/runtime-deps";
import type { Actor } from "../api/actor";

export interface LoopServices {
  db: Database;
  dispatcher: Dispatcher;
  engine: Pick<Deps, "now" | "newId" | "random">;
}

export interface ActingAs {
  actor: Actor;
  reason?: string | null;
}

export const actorName = (actor: Actor) => (actor.id ? actor.email : `${actor.email}`);
