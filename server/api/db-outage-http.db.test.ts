// While PostgreSQL is down (a private cluster, stopped and started again; never
// the shared server), loop controls answer 503 with Retry-After instead of 500,
// and the health report comes back within a second saying degraded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../test/auth-fixtures";
import { ROOT } from "../../test/db-providers";
import { HttpClient, startAppHttpServer, type AppHttpServer } from "../../test/http-app-server";
import { pgClusterUnavailable, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { asOperator } from "../../test/runtime-harness";
import { createTempDatabase } from "../../test/temp-database";
import { servicesWithoutJobs } from "../../test/trpc-http-server";
import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrations/migrator";
import { createLoopFromDefinition } from "../loops/loop-create.service";
import { loopDefinitionSchema } from "../loops/loop-definition";
import { getHealth } from "../system/health.service";

const unavailable = pgClusterUnavailable();
if (unavailable) console.warn(`database outage HTTP test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("a PostgreSQL restart seen over HTTP", () => {
  let cluster: PgCluster;
  let db: Database;
  let server: AppHttpServer;
  let operator: HttpClient;
  let loopId: string;
  beforeAll(async () => {
    cluster = await startPgCluster();
    const temp = await createTempDatabase("postgresql", cluster.adminUrl, "outage");
    await migrate(temp.target, ROOT);
    db = openDatabase(temp.target);
    const services = servicesWithoutJobs(db);
    server = await startAppHttpServer(services);
    const user = await createUser(db, "operator");
    operator = new HttpClient(server.origin);
    expect((await operator.call("auth.signIn", { email: user.email, password: user.password })).status).toBe(200);
    const definition = loopDefinitionSchema.parse({
      goal: "outage probe",
      agent: { kind: "demo" },
      loop: { completion: { allowNoEvidence: true } },
    });
    loopId = (await createLoopFromDefinition(services, definition, false, asOperator())).id;
    // The sandbox check runs once per process; do it before the outage, as a running server would have.
    expect((await getHealth(db, ROOT)).status).not.toBe("down");
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await db?.close().catch(() => undefined);
    cluster?.destroy();
  });

  it.each(["fast", "immediate"] as const)(
    "%s stop: controls answer 503 with Retry-After, health is degraded within a second, then both recover",
    async (mode) => {
      const before = (await operator.call("loops.controls.interrupt", { id: loopId })).status;
      expect(before).toBeLessThan(500);
      await cluster.stop(mode);
      const statuses: number[] = [];
      const retryAfter: (string | null)[] = [];
      for (const name of ["start", "interrupt", "resume"]) {
        const response = await fetch(`${server.origin}/api/trpc/loops.controls.${name}`, {
          method: "POST",
          body: JSON.stringify({ json: { id: loopId } }),
          headers: { "content-type": "application/json", origin: server.origin, cookie: operator.cookie ?? "" },
        });
        statuses.push(response.status);
        retryAfter.push(response.headers.get("retry-after"));
      }
      expect(statuses).toEqual([503, 503, 503]);
      expect(retryAfter.every((v) => v !== null && Number(v) > 0)).toBe(true);

      const started = Date.now();
      const health = await getHealth(db, ROOT);
      const tookMs = Date.now() - started;
      expect(tookMs).toBeLessThan(1_000);
      expect(health).toMatchObject({ status: "degraded" });
      expect(health.error).toMatch(/database not answering/);

      await cluster.start();
      // Back up: the same answer as before the outage.
      let recovered = 503;
      for (let i = 0; i < 40 && recovered === 503; i++) {
        recovered = (await operator.call("loops.controls.interrupt", { id: loopId })).status;
        if (recovered === 503) await new Promise((r) => setTimeout(r, 250));
      }
      expect(recovered).toBe(before);
      expect((await getHealth(db, ROOT)).status).not.toBe("down");
      console.log(`[outage ${mode}] controls ${statuses.join(",")}, health ${health.status} in ${tookMs} ms`);
    },
    60_000,
  );
});
