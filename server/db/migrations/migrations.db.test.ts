import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeEachProvider, ROOT } from "../../../test/db-providers";
import { derivePostgresSchema } from "../../../scripts/lib/schema-variants.mjs";
import { migrationsDir } from "../database-target";
import { readMigrationFiles } from "./migration-files";
import { migrate, migrationState } from "./migrator";
import { diffDatabaseToSchema } from "./schema-diff";

const SCHEMA = {
  sqlite: () => readFileSync(join(ROOT, "prisma/schema.prisma"), "utf8"),
  postgresql: () => readFileSync(join(ROOT, "prisma/postgresql/schema.prisma"), "utf8"),
};

it("the PostgreSQL schema is derived from prisma/schema.prisma (run npm run db:generate)", () => {
  expect(SCHEMA.postgresql()).toBe(derivePostgresSchema(SCHEMA.sqlite()));
});

describeEachProvider("committed migrations", ({ kind, temp }) => {
  it("produce exactly the schema in schema.prisma (no drift)", async () => {
    const drift = await diffDatabaseToSchema(temp().target, SCHEMA[kind]());
    // A non-empty script is the SQL a missing migration would need:
    // run `npm run db:migration:new -- <name>` to write it.
    expect(drift).toBe("");
  });

  it("would notice a schema change that has no migration", async () => {
    const edited = SCHEMA[kind]().replace("model ShareLink {", "model ShareLink {\n  note String?");
    expect(await diffDatabaseToSchema(temp().target, edited)).toMatch(/note/);
  });

  it("are recorded the way Prisma records them, and re-running is a no-op", async () => {
    expect(await migrate(temp().target, ROOT)).toEqual([]);
    expect(await migrationState(temp().target, ROOT)).toMatchObject({ status: "up-to-date" });
    const files = readMigrationFiles(migrationsDir(kind, ROOT));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f.checksum).toBe(createHash("sha256").update(f.sql).digest("hex"));
  });
});
