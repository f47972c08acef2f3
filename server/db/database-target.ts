// Turns DATABASE_URL into the concrete database the app talks to.
import { isAbsolute, resolve } from "node:path";

export type DatabaseKind = "sqlite" | "postgresql";

export type DatabaseTarget = { kind: "sqlite"; url: string; file: string } | { kind: "postgresql"; url: string };

/** SQLite paths are relative to the working directory the app starts in. */
export function resolveDatabaseTarget(url: string, cwd: string): DatabaseTarget {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length).split("?")[0] ?? "";
    if (!path) throw new Error("DATABASE_URL: a file: URL needs a path, e.g. file:./data/ralph.db");
    const file = isAbsolute(path) ? path : resolve(cwd, path);
    return { kind: "sqlite", url: `file:${file}`, file };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgresql", url };
  throw new Error('DATABASE_URL: must start with "file:" or "postgresql://"');
}

/** Where each provider keeps its committed migrations (Prisma's standard layout). */
export function migrationsDir(kind: DatabaseKind, root: string): string {
  return kind === "sqlite" ? resolve(root, "prisma/migrations") : resolve(root, "prisma/postgresql/migrations");
}
