// Derives the PostgreSQL schema from prisma/schema.prisma and generates both
// Prisma clients. Runs on `npm install` (postinstall) and `npm run db:generate`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { derivePostgresSchema } from "./lib/schema-variants.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "prisma/schema.prisma");
const pgSchema = join(root, "prisma/postgresql/schema.prisma");

mkdirSync(dirname(pgSchema), { recursive: true });
const derived = derivePostgresSchema(readFileSync(source, "utf8"));
if (!existsSync(pgSchema) || readFileSync(pgSchema, "utf8") !== derived) writeFileSync(pgSchema, derived);

// `prisma generate` needs no schema engine, but the CLI insists on finding one
// and would try to download it (there is no network here). Pointing it at any
// existing executable satisfies the check; on a connected machine a real engine
// path set by the user wins.
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

const prismaCli = join(root, "node_modules/prisma/build/index.js");
for (const config of ["prisma.config.ts", "prisma/postgresql/prisma.config.ts"]) {
  execFileSync(process.execPath, [prismaCli, "generate", "--config", config], {
    cwd: root,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
}
