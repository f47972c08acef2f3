// The loop list's sorts are served by an index on both databases, so a page of
// 10,000 loops is read in order, not sorted in full. Checked with the
// databases' own query plans for the statements the list runs.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { LOOP_SORT_COLUMNS } from "./loops.repo";

describeEachProvider("loop list query plans", ({ db, kind }) => {
  const statement = (column: string, direction: "ASC" | "DESC") =>
    `SELECT "id" FROM "Loop" ORDER BY "${column}" ${direction}, "id" ${direction} LIMIT 26`;

  async function plan(sql: string): Promise<string> {
    if (kind === "sqlite")
      return (await db().prisma.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`))
        .map((r) => r.detail)
        .join("\n");
    return db().prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql}`);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
  }

  it.each([
    ["status", `"status" IN ('running', 'paused')`],
    ["agent kind", `"agentKind" IN ('demo')`],
  ])("a %s filter and its count are read from an index", async (_name, filter) => {
    for (const sql of [
      `SELECT "id" FROM "Loop" WHERE ${filter} ORDER BY "updatedAt" DESC LIMIT 26`,
      `SELECT COUNT(*) FROM "Loop" WHERE ${filter}`,
    ]) {
      const text = await plan(sql);
      expect(text, text).toMatch(/INDEX|Index/);
      expect(text, text).not.toMatch(/^SCAN Loop$|Seq Scan/m);
    }
  });

  it.each([
    [
      "sparklines",
      `SELECT "number", "meanScore", "durationMs", "finishedAt" FROM "Iteration" WHERE "loopId" = 'x' AND "number" > 5`,
    ],
    [
      "chart downsampling",
      `SELECT "number", "status", "meanScore", "handoffTrigger", "costUsd", "tokensIn", "tokensOut", "tokensCache" FROM "Iteration" WHERE "loopId" = 'x' AND "number" > 0 AND "number" <= 100`,
    ],
  ])("the %s read no iteration row, only the covering index", async (_name, sql) => {
    const text = await plan(sql);
    expect(text, text).toMatch(kind === "sqlite" ? /COVERING INDEX Iteration_chart_covering_idx/ : /Index Only Scan/);
  });

  it("the chart's cache key (a loop's last iteration and attempt) is one index seek, not a sort", async () => {
    for (const direction of ["ASC", "DESC"] as const) {
      const text = await plan(
        `SELECT "number", "attempt" FROM "Iteration" WHERE "loopId" = 'x' AND "number" > 0 AND "number" <= 100 ORDER BY "number" ${direction}, "attempt" ${direction} LIMIT 1`,
      );
      expect(text, text).toMatch(/INDEX|Index/);
      expect(text, text).not.toMatch(/TEMP B-TREE|Sort|Seq Scan/);
    }
  });

  it.each(Object.entries(LOOP_SORT_COLUMNS))("sorting by %s reads an index in order", async (_sort, column) => {
    for (const direction of ["DESC", "ASC"] as const) {
      const plan =
        kind === "sqlite"
          ? (
              await db().prisma.$queryRawUnsafe<{ detail: string }[]>(
                `EXPLAIN QUERY PLAN ${statement(column, direction)}`,
              )
            ).map((r) => r.detail)
          : await db().prisma.$transaction(async (tx) => {
              // An empty table is cheapest to scan; forbid that to see whether an index can serve the order.
              await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
              const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
                `EXPLAIN ${statement(column, direction)}`,
              );
              return rows.map((r) => r["QUERY PLAN"]);
            });
      const text = plan.join("\n");
      expect(text, text).toMatch(/INDEX|Index/);
      expect(text, text).not.toMatch(/TEMP B-TREE|Sort/);
    }
  });
});
