// npm run db:migrate: create (PostgreSQL) and migrate the database in DATABASE_URL.
import { getEnv } from "../server/env";
import { prepareDatabase } from "../server/db/bootstrap";
import { resolveDatabaseTarget } from "../server/db/database-target";

const target = resolveDatabaseTarget(getEnv().DATABASE_URL, process.cwd());
try {
  const applied = await prepareDatabase(target, process.cwd());
  console.log(
    applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.",
  );
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
