// Errors the CLI turns into exit codes (cli/exit-codes.ts) in one place, main.ts.
import { TRPCClientError } from "@trpc/client";
import { EXIT, type ExitCode } from "./exit-codes";

/** The command line itself is wrong: exit 64. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A command that ends with a specific code and message (e.g. --wait seeing the loop fail). */
export class ExitWith extends Error {
  constructor(
    readonly code: ExitCode,
    message = "",
  ) {
    super(message);
  }
}

/** A dropped or refused connection (as opposed to an answer the server gave). */
export function isNetworkFailure(error: unknown): boolean {
  for (let e = error as { cause?: unknown; code?: string; message?: string } | undefined; e; e = e.cause as typeof e) {
    if (["ECONNREFUSED", "ENOTFOUND", "ECONNRESET", "EHOSTUNREACH", "ETIMEDOUT", "EAI_AGAIN"].includes(e.code ?? ""))
      return true;
    if (e instanceof TypeError && /fetch failed/.test(e.message ?? "")) return true;
    if (e === e.cause) break;
  }
  return false;
}

/** The exit code and a one-line message for whatever a command threw. */
export function describeFailure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof ExitWith) return { code: error.code, message: error.message };
  if (error instanceof UsageError) return { code: EXIT.usage, message: error.message };
  if (isNetworkFailure(error)) {
    return { code: EXIT.unreachable, message: `The server is unreachable (${(error as Error).message})` };
  }
  if (error instanceof TRPCClientError) {
    const data = error.data as { code?: string; zodError?: { fieldErrors?: Record<string, string[]> } } | undefined;
    const field = data?.zodError?.fieldErrors && Object.entries(data.zodError.fieldErrors)[0];
    const message = field ? `${field[0]}: ${field[1]?.[0]}` : error.message;
    switch (data?.code) {
      case "UNAUTHORIZED":
        return { code: EXIT.denied, message: `${message} (the token is missing, revoked or expired)` };
      case "FORBIDDEN":
        return { code: EXIT.denied, message };
      case "BAD_REQUEST":
      case "PARSE_ERROR":
        return { code: EXIT.usage, message };
      default:
        return { code: EXIT.failed, message };
    }
  }
  return { code: EXIT.failed, message: error instanceof Error ? error.message : String(error) };
}
