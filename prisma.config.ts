// Prisma CLI config for the embedded SQLite database. The app itself never
// reads this file: it connects through driver adapters in server/db.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.DATABASE_URL?.startsWith("file:") ? process.env.DATABASE_URL : "file:./data/ralph.db",
  },
});
