import type { Database } from "../db/client";
import type { LoopServices } from "../loops/loop-services";
import { LOCAL_OPERATOR, type Actor } from "./actor";

export interface ApiContext {
  db: Database;
  services: LoopServices;
  actor: Actor | null;
  headers: Headers;
}

export interface ContextInput {
  services: LoopServices;
  headers?: Headers;
  actor?: Actor | null;
}

export function createContext(input: ContextInput): ApiContext {
  return {
    db: input.services.db,
    services: input.services,
    actor: input.actor === undefined ? LOCAL_OPERATOR : input.actor,
    headers: input.headers ?? new Headers(),
  };
}
