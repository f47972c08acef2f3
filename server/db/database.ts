// The process-wide database, opened lazily from the validated environment.
import { getEnv } from "../env";
import { openDatabase, type Database } from "./client";
import { resolveDatabaseTarget } from "./database-target";

const globalForDb = globalThis as unknown as { ralphDatabase?: Database };

/** Kept on globalThis so dev-mode module reloads reuse one connection pool. */
export function getDatabase(): Database {
  const env = getEnv();
  globalForDb.ralphDatabase ??= openDatabase(resolveDatabaseTarget(env.DATABASE_URL, process.cwd()), {
    groupCommitMs: env.RALPH_GROUP_COMMIT_MS,
  });
  return globalForDb.ralphDatabase;
}
