// Reachability and migration status, read through the app's own connection.
import { migrationsDir } from "./database-target";
import type { Database } from "./client";
import { compareMigrations, describeMigrationState } from "./migrations/migrator";
import { readMigrationFiles, type MigrationFile } from "./migrations/migration-files";

const filesCache = new Map<string, MigrationFile[]>();

type Row = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown };

export async function checkDatabase(db: Database, root: string) {
  const dir = migrationsDir(db.kind, root);
  if (!filesCache.has(dir)) filesCache.set(dir, readMigrationFiles(dir));
  const files = filesCache.get(dir)!;
  let rows: Row[];
  try {
    rows = await db.prisma.$queryRawUnsafe<Row[]>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
  } catch (error) {
    // Reachable but never migrated is different from unreachable.
    if (/_prisma_migrations|no such table|does not exist/i.test(String(error)))
      return { reachable: true, migrations: "not-migrated" };
    throw error;
  }
  const state = compareMigrations(
    files,
    rows.map((r) => ({
      name: r.migration_name,
      checksum: r.checksum,
      finished: r.finished_at != null,
      rolledBack: r.rolled_back_at != null,
    })),
  );
  return { reachable: true, migrations: describeMigrationState(state) };
}
