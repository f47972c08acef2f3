// The PostgreSQL schema is the SQLite schema with another provider and client
// output. Keeping the derivation in one function lets the drift test reuse it.
export function derivePostgresSchema(sqliteSchema) {
  const out = sqliteSchema
    .replace(/provider = "sqlite"/, 'provider = "postgresql"')
    .replace('output   = "../server/db/generated/sqlite"', 'output   = "../../server/db/generated/postgresql"');
  if (out === sqliteSchema || !out.includes('provider = "postgresql"') || !out.includes("generated/postgresql")) {
    throw new Error("prisma/schema.prisma no longer has the expected datasource/generator lines");
  }
  return "// GENERATED from prisma/schema.prisma by scripts/generate.mjs. Do not edit.\n" + out;
}
