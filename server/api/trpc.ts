import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError, z } from "zod";
import { hasRole, type Role } from "../auth/actor";
import type { ApiContext } from "./context";
import { toTRPCError } from "./error-map";

/**
 * Every procedure declares who may call it, here and nowhere else: a `role`
 * (through `roleProcedure`) or `public: true` (through `publicProcedure`, an
 * explicit short list checked by server/api/role-matrix.db.test.ts).
 */
export interface ProcedureMeta {
  role?: Role;
  public?: true;
}

/**
 * Server-sent event streams (subscriptions). Proxies and load balancers close
 * connections that stay silent for ~30-60 s, and a half-dead connection is only
 * noticed by the client when nothing arrives: the server pings every 5 s and
 * the client reconnects (resuming from the last event id) after 15 s of silence.
 */
export const SSE_OPTIONS = {
  ping: { enabled: true, intervalMs: 5_000 },
  client: { reconnectAfterInactivityMs: 15_000 },
};

const t = initTRPC
  .context<ApiContext>()
  .meta<ProcedureMeta>()
  .create({
    transformer: superjson,
    sse: SSE_OPTIONS,
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof ZodError ? z.flattenError(error.cause) : null;
      return {
        ...shape,
        // Internal errors never carry their stack or message to the client.
        message: error.code === "INTERNAL_SERVER_ERROR" ? "Internal error" : shape.message,
        data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, zodError },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Turns whatever a resolver throws into a TRPCError via the one error map. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  // Only what tRPC could not classify (a resolver's own throw) is mapped: an
  // input it already refused as BAD_REQUEST (bad superjson meta, say) keeps its 400.
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR" && !(result.error.cause instanceof ZodError)) {
    const mapped = toTRPCError(result.error.cause ?? result.error);
    if (mapped.code !== result.error.code) throw mapped;
  }
  return result;
});

const baseProcedure = t.procedure.use(mapErrors);

/** Callable without signing in. Keep this list short; the role matrix test names every one. */
export const publicProcedure = baseProcedure.meta({ public: true });

export const protectedProcedure = baseProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/**
 * A procedure that needs at least `role`. The check reads the role from the
 * procedure's meta, so the declared role is the enforced role; a signed-in
 * call to a procedure without one is refused.
 */
export const roleProcedure = (role: Role) =>
  protectedProcedure.meta({ role }).use(({ ctx, meta, next }) => {
    const needed = meta?.role;
    if (!needed || !hasRole(ctx.actor, needed)) {
      throw new TRPCError({
        code: "FORBIDDEN",
        message: needed ? `This needs the ${needed} role` : "This procedure declares no role",
      });
    }
    return next();
  });

/** The three roles' procedures, built once for every router. */
export const viewerProcedure = roleProcedure("viewer");
export const operatorProcedure = roleProcedure("operator");
export const adminProcedure = roleProcedure("admin");
