// The one place domain and storage errors become tRPC errors.
import { TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";
import { DomainError, type DomainErrorCode } from "../errors";
import { isStorageConflict, isStorageNotFound, isTransientStorageError } from "../db/storage-errors";

const STATUS: Record<DomainErrorCode, TRPC_ERROR_CODE_KEY> = {
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  INVALID_INPUT: "BAD_REQUEST",
  UNAUTHENTICATED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  if (error instanceof DomainError)
    return new TRPCError({ code: STATUS[error.code], message: error.message, cause: error });
  if (error instanceof ZodError) return new TRPCError({ code: "BAD_REQUEST", message: "Invalid input", cause: error });
  if (isStorageConflict(error))
    return new TRPCError({
      code: "CONFLICT",
      message: "The record was changed or already exists",
      cause: error as Error,
    });
  if (isStorageNotFound(error))
    return new TRPCError({ code: "NOT_FOUND", message: "The record was not found", cause: error as Error });
  // A restart or a full pool passes: the caller is told to try again (503 with
  // Retry-After, set by the HTTP handler), never handed an internal error.
  if (isTransientStorageError(error))
    return new TRPCError({
      code: "SERVICE_UNAVAILABLE",
      message: "The database is busy or restarting; try again shortly",
      cause: error instanceof Error ? error : undefined,
    });
  return new TRPCError({
    code: "INTERNAL_SERVER_ERROR",
    message: "Internal error",
    cause: error instanceof Error ? error : undefined,
  });
}
