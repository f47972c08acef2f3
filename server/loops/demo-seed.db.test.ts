import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { createPorts } from "../agents/registry";
import { envSecretResolver } from "../agents/secret-resolver";
import { describeEachProvider } from "../../test/db-providers";
import { LocalDispatcher } from "../jobs/local-dispatcher";
import { DEFAULT_SETTINGS } from "../jobs/runtime-deps";
import { systemDeps } from "../jobs/system-deps";
import { seedDemoLoops } from "./demo-seed";

describeEachProvider("seed:demo", ({ db }) => {
  it("fills an empty database with one loop in each state, and refuses a non-empty one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-seed-"));
    const ports = (loop: { id: string; config: unknown }) =>
      createPorts(
        loop.config as Parameters<typeof createPorts>[0],
        { workspaceDir: (id) => join(dir, id), secrets: envSecretResolver },
        loop.id,
      );
    const dispatcher = new LocalDispatcher();
    dispatcher.attach({
      db: db(),
      ports,
      dispatcher,
      engine: systemDeps,
      settings: { ...DEFAULT_SETTINGS },
      instanceId: "seed",
    });
    const seed = () => seedDemoLoops({ db: db(), dispatcher, engine: systemDeps }, () => dispatcher.idle());
    const ids = await seed();
    const status = async (key: keyof typeof ids) =>
      await db().prisma.loop.findUniqueOrThrow({ where: { id: ids[key]! } });
    expect(await status("completed")).toMatchObject({ status: "completed" });
    expect(await status("approval")).toMatchObject({ status: "awaiting_approval" });
    expect(await status("budget")).toMatchObject({ status: "stopped", stopType: "budget_exhausted" });
    expect(await status("running")).toMatchObject({ status: "queued" });
    expect(await db().prisma.approval.count({ where: { loopId: ids.approval!, status: "pending" } })).toBe(1);
    await expect(seed()).rejects.toThrow(/empty database/);
    await dispatcher.stop();
  });
});
