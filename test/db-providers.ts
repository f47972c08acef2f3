// Runs a suite once per database provider, each against a fresh, migrated
// database of its own that is dropped afterwards.
import { afterAll, beforeAll, describe, inject } from "vitest";
import { openDatabase, type Database } from "../server/db/client";
import type { DatabaseKind } from "../server/db/database-target";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase, type TempDatabase } from "./temp-database";
import { parseEnv } from "../server/env";

export const PROVIDERS: DatabaseKind[] = ["sqlite", "postgresql"];
export const ROOT = process.cwd();
export const pgAdminUrl = () => parseEnv(process.env).RALPH_PG_ADMIN_URL;

export interface ProviderContext {
  kind: DatabaseKind;
  /** The open database; valid inside tests. */
  db(): Database;
  temp(): TempDatabase;
}

export function describeEachProvider(name: string, body: (ctx: ProviderContext) => void) {
  for (const kind of PROVIDERS) {
    const run = kind === "postgresql" && !inject("pgAvailable") ? describe.skip : describe;
    run(`${name} [${kind}]`, () => {
      let temp: TempDatabase | undefined;
      let database: Database | undefined;
      beforeAll(async () => {
        temp = await createTempDatabase(kind, pgAdminUrl(), "test");
        await migrate(temp.target, ROOT);
        database = openDatabase(temp.target);
      });
      afterAll(async () => {
        await database?.close();
        await temp?.drop();
      });
      body({
        kind,
        db: () => database!,
        temp: () => temp!,
      });
    });
  }
}
