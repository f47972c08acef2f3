// Domain errors: what services throw. The API maps each to a transport status
// in one place (server/api/error-map.ts); nothing else decides status codes.
export type DomainErrorCode =
  "NOT_FOUND" | "CONFLICT" | "INVALID_INPUT" | "UNAUTHENTICATED" | "FORBIDDEN" | "RATE_LIMITED" | "UNAVAILABLE";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string, id?: string) =>
  new DomainError("NOT_FOUND", id ? `${what} ${id} was not found` : `${what} was not found`);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError("CONFLICT", message, details);
export const invalidInput = (message: string, details?: Record<string, unknown>) =>
  new DomainError("INVALID_INPUT", message, details);
export const forbidden = (message = "You are not allowed to do this") => new DomainError("FORBIDDEN", message);
export const unauthenticated = (message = "Sign in first") => new DomainError("UNAUTHENTICATED", message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new DomainError("RATE_LIMITED", message, { retryAfterSeconds });
