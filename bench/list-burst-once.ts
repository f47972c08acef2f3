// `npx tsx bench/list-burst-once.ts [sqlite|postgresql]`: only the loops.list
// burst figure of `npm run bench`, for working on it without the whole run.
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrations/migrator";
import { createTempDatabase } from "../test/temp-database";
import { getEnv } from "../server/env";
import { measureListDuringBurst } from "./dashboard-bench";

const kind = (process.argv[2] ?? "sqlite") as "sqlite" | "postgresql";
const temp = await createTempDatabase(kind, getEnv().RALPH_PG_ADMIN_URL, "bench");
await migrate(temp.target, process.cwd());
const db = openDatabase(temp.target, { poolSize: 20 });
try {
  console.log(kind, await measureListDuringBurst(db));
} finally {
  await db.close();
  await temp.drop();
}
