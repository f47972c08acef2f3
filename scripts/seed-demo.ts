// npm run seed:demo: example loops in an empty database (see server/loops/demo-seed.ts).
import { getDatabase } from "../server/db/database";
import { prepareDatabase } from "../server/db/bootstrap";
import { seedDemoLoops } from "../server/loops/demo-seed";
import { createLoopPorts } from "../server/loops/ports-factory";

const db = getDatabase();
try {
  await prepareDatabase(db.target, process.cwd());
  await seedDemoLoops(db, createLoopPorts, (m) => console.log(m));
  console.log("Seeded. Start the app (npm start): the live loop continues there.");
  process.exit(0);
} catch (error) {
  console.error(`seed:demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
