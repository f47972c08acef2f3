import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../../test/db-providers";
import { createHarness } from "../../../test/runtime-harness";
import { createContext } from "../context";
import { createCaller } from "../root";

describeEachProvider("loops router", ({ db }) => {
  const caller = () => createCaller(createContext({ services: createHarness(db(), {}).services }));

  beforeAll(async () => {
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 7; i++) {
      await db().prisma.loop.create({
        data: {
          id: randomUUID(),
          goal: i % 2 ? `Fix the flaky test #${i}` : `Write docs #${i}`,
          agentKind: i % 3 === 0 ? "demo" : "command",
          config: { stop: { maxIterations: 10 } },
          status: i < 2 ? "running" : "completed",
          costUsd: i * 0.1,
          updatedAt: new Date(base + i * 1000),
        },
      });
    }
  });

  it("lists newest first with a total", async () => {
    const page = await caller().loops.list({});
    expect(page.total).toBe(7);
    expect(page.items.map((l) => l.goal)[0]).toBe("Write docs #6");
  });

  it("filters by status, agent and text", async () => {
    expect((await caller().loops.list({ status: ["running"] })).total).toBe(2);
    expect((await caller().loops.list({ agentKind: ["demo"] })).total).toBe(3);
    expect((await caller().loops.list({ text: "flaky" })).total).toBe(3);
    expect((await caller().loops.list({ text: "flaky", agentKind: ["demo"] })).items.map((l) => l.goal)).toEqual([
      "Fix the flaky test #3",
    ]);
  });

  it("pages with a cursor without repeating or skipping", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await caller().loops.list({ limit: 3, sort: "cost", direction: "asc", cursor });
      seen.push(...page.items.map((l) => l.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it("rejects bad input with BAD_REQUEST and a flattened zod error", async () => {
    const error = await caller()
      .loops.list({ limit: 1000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
  });

  it("reports health with the provider and migration state", async () => {
    const health = await caller().system.health();
    expect(health).toMatchObject({ status: "ok", migrations: "up-to-date" });
    expect(["sqlite", "postgresql"]).toContain(health.db);
  });
});
