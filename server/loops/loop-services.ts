// What the loop use cases need: storage, a way to get loops run, and the
// clock/ids (injected, so tests control them).
import type { Deps } from "../engine";
import type { Database } from "../db/client";
import type { Actor } from "../auth/actor";

/**
 * How a use case gets a loop run soon. The job runtime (server/jobs) provides
 * it; services never know which runtime runs loops, or whether one does.
 */
export interface LoopDispatcher {
  /** Never throws; a lost dispatch is caught by the sweeper. */
  dispatch(loopId: string): void;
  /** Asks again at `at` (a control changed when a waiting loop is due). */
  dispatchAt(loopId: string, at: Date): void;
}

export interface LoopServices {
  db: Database;
  dispatcher: LoopDispatcher;
  engine: Pick<Deps, "now" | "newId" | "random" | "sha256">;
}

export interface ActingAs {
  actor: Actor;
  reason?: string | null;
}

export const actorName = (actor: Actor) => (actor.token ? `${actor.email} (token "${actor.token}")` : actor.email);
