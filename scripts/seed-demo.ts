// npm run seed:demo: example loops in an empty database (see server/loops/demo-seed.ts).
import { getDatabase } from "../server/db/database";
import { prepareDatabase } from "../server/db/bootstrap";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { DEFAULT_SETTINGS } from "../server/jobs/runtime-deps";
import { systemDeps } from "../server/jobs/system-deps";
import { seedDemoLoops } from "../server/loops/demo-seed";
import { createLoopPorts } from "../server/loops/ports-factory";

const db = getDatabase();
try {
  await prepareDatabase(db.target, process.cwd());
  // The seeded loops run in this process, so their states are real ones.
  const dispatcher = new LocalDispatcher();
  dispatcher.attach({
    db,
    ports: createLoopPorts,
    dispatcher,
    engine: systemDeps,
    settings: { ...DEFAULT_SETTINGS },
    instanceId: "seed",
  });
  await seedDemoLoops(
    { db, dispatcher, engine: systemDeps },
    () => dispatcher.idle(),
    (m) => console.log(m),
  );
  console.log("Seeded. Start the app (npm start): the live loop continues there.");
  process.exit(0);
} catch (error) {
  console.error(`seed:demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
