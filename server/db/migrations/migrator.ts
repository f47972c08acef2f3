// Applies the committed migration.sql files offline, with the raw driver, the
// way `prisma migrate deploy` would: in order, each in a transaction, recorded
// in _prisma_migrations with its sha256 checksum.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrationsDir, type DatabaseTarget } from "../database-target";
import { migrationDriverFor, type AppliedMigration } from "./migration-driver";
import { readMigrationFiles, type MigrationFile } from "./migration-files";

export type MigrationState =
  | { status: "up-to-date"; applied: number }
  | { status: "pending"; pending: string[] }
  | { status: "modified"; modified: string[] }
  | { status: "failed"; failed: string[] }
  | { status: "unknown-migrations"; unknown: string[] };

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

/** Compares what is committed with what the database says it ran. */
export function compareMigrations(files: MigrationFile[], applied: AppliedMigration[]): MigrationState {
  const live = applied.filter((a) => !a.rolledBack);
  const failed = live.filter((a) => !a.finished).map((a) => a.name);
  if (failed.length) return { status: "failed", failed };
  const byName = new Map(live.map((a) => [a.name, a]));
  const modified = files.filter((f) => byName.has(f.name) && byName.get(f.name)!.checksum !== f.checksum);
  if (modified.length) return { status: "modified", modified: modified.map((f) => f.name) };
  const known = new Set(files.map((f) => f.name));
  const unknown = live.filter((a) => !known.has(a.name)).map((a) => a.name);
  if (unknown.length) return { status: "unknown-migrations", unknown };
  const pending = files.filter((f) => !byName.has(f.name)).map((f) => f.name);
  if (pending.length) return { status: "pending", pending };
  return { status: "up-to-date", applied: files.length };
}

function prepare(target: DatabaseTarget) {
  if (target.kind === "sqlite") mkdirSync(dirname(target.file), { recursive: true });
  return migrationDriverFor(target);
}

/** Applies every pending migration. Returns the names it applied. */
export async function migrate(target: DatabaseTarget, root: string): Promise<string[]> {
  const files = readMigrationFiles(migrationsDir(target.kind, root));
  const driver = prepare(target);
  try {
    return await driver.withLock(async () => {
      await driver.ensureTable();
      const state = compareMigrations(files, await driver.applied());
      if (state.status === "up-to-date") return [];
      if (state.status !== "pending") {
        throw new MigrationError(`Cannot migrate ${target.kind} database: ${describeMigrationState(state)}`);
      }
      const pending = files.filter((f) => state.pending.includes(f.name));
      for (const file of pending) await driver.apply(randomUUID(), file.name, file.checksum, file.sql);
      return pending.map((f) => f.name);
    });
  } finally {
    await driver.close();
  }
}

export async function migrationState(target: DatabaseTarget, root: string): Promise<MigrationState> {
  const files = readMigrationFiles(migrationsDir(target.kind, root));
  const driver = prepare(target);
  try {
    await driver.ensureTable();
    return compareMigrations(files, await driver.applied());
  } finally {
    await driver.close();
  }
}

export function describeMigrationState(state: MigrationState): string {
  switch (state.status) {
    case "up-to-date":
      return "up-to-date";
    case "pending":
      return `pending: ${state.pending.join(", ")}`;
    case "modified":
      return `modified after it was applied: ${state.modified.join(", ")}`;
    case "failed":
      return `failed and not rolled back: ${state.failed.join(", ")}`;
    case "unknown-migrations":
      return `applied but not in this checkout: ${state.unknown.join(", ")}`;
  }
}
