// Interactive transactions for either provider, typed with the shared client type.
import type { Db } from "./prisma-client";

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** Runs `fn` in one transaction; everything it writes commits together or not at all. */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(fn, { maxWait: 10_000, timeout: 30_000 });
}

/** A JSON value as the storage layer accepts it (for services that pass JSON through). */
export type JsonInput = import("./generated/sqlite/client").Prisma.InputJsonValue;
