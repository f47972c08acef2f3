import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError, z } from "zod";
import { hasRole, type Role } from "./actor";
import type { ApiContext } from "./context";
import { toTRPCError } from "./error-map";

export interface ProcedureMeta {
  role?: Role;
}

const t = initTRPC.context<ApiContext>().meta<ProcedureMeta>().create({
  transformer: superjson,
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
  if (!result.ok && !(result.error.cause instanceof ZodError)) {
    const mapped = toTRPCError(result.error.cause ?? result.error);
    if (mapped.code !== result.error.code) throw mapped;
  }
  return result;
});

export const publicProcedure = t.procedure.use(mapErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** A procedure that needs at least `role`. */
export const roleProcedure = (role: Role) =>
  protectedProcedure.meta({ role }).use(({ ctx, next }) => {
    if (!hasRole(ctx.actor, role)) throw new TRPCError({ code: "FORBIDDEN", message: `This needs the ${role} role` });
    return next();
  });
