import type { Database } from "../db/client";
import { LOCAL_OPERATOR, type Actor } from "./actor";

export interface ApiContext {
  db: Database;
  actor: Actor | null;
  headers: Headers;
}

export interface ContextInput {
  db: Database;
  headers?: Headers;
  actor?: Actor | null;
}

export function createContext(input: ContextInput): ApiContext {
  return {
    db: input.db,
    actor: input.actor === undefined ? LOCAL_OPERATOR : input.actor,
    headers: input.headers ?? new Headers(),
  };
}
