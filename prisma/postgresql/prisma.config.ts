// Prisma CLI config for PostgreSQL: `prisma migrate deploy --config prisma/postgresql/prisma.config.ts`
// on a connected machine applies the same migrations the app applies offline.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/ralph" },
});
