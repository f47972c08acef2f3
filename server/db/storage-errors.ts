// Recognises Prisma's known request errors without leaking Prisma types upward.
import { Prisma } from "./generated/sqlite/client";

const codeOf = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError ? error.code : undefined;

/** Unique constraint violation (P2002) or a failed compare-and-set write. */
export const isStorageConflict = (error: unknown) => codeOf(error) === "P2002";
/** An update or delete found no record (P2025). */
export const isStorageNotFound = (error: unknown) => codeOf(error) === "P2025";
