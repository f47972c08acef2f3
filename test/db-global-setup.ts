// Decides once per run whether the PostgreSQL suites can run. Under CI a
// missing PostgreSQL fails the run instead of silently skipping half the tests.
import pg from "pg";
import type { TestProject } from "vitest/node";
import { parseEnv } from "../server/env";

declare module "vitest" {
  export interface ProvidedContext {
    pgAvailable: boolean;
  }
}

export default async function setup(project: TestProject) {
  const env = parseEnv(process.env);
  const client = new pg.Client({ connectionString: env.RALPH_PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  let available = false;
  try {
    await client.connect();
    await client.query("SELECT 1");
    available = true;
  } catch (error) {
    if (process.env.CI === "true") {
      throw new Error(`PostgreSQL is required under CI but ${env.RALPH_PG_ADMIN_URL} is unreachable: ${String(error)}`);
    }
    console.warn(
      `PostgreSQL at ${env.RALPH_PG_ADMIN_URL} is unreachable: its suites are skipped (they fail under CI=true).`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  project.provide("pgAvailable", available);
}
