// Every procedure of the app router declares who may call it, and the
// declaration is enforced. Enumerates appRouter._def.procedures, so a new
// procedure is covered the moment it is added, and one without a declared
// role fails here.
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { callerAs } from "../../test/auth-fixtures";
import type { Actor, Role } from "../auth/actor";
import { appRouter } from "./root";
import { protectedProcedure, publicProcedure, roleProcedure, router, type ProcedureMeta } from "./trpc";

/** Callable without signing in. Adding to this list needs a reason here. */
const PUBLIC = [
  "system.health", // load balancers and the e2e harness probe it
  "system.storage", // every page's banner, sign-in included (a reason, no data)
  "auth.me", // null when anonymous: pages decide what to show
  "auth.signIn",
  "auth.setupStatus", // the one-time setup page (loopback only)
  "auth.setup",
  "share.view", // holders of a live share token; rate-limited per IP
  "share.iterations",
];

/** Mutations every signed-in user may make on their own account (their own mutes and push subscriptions too). */
const SELF_SERVICE_MUTATIONS = [
  "auth.signOut",
  "auth.changePassword",
  "tokens.create",
  "tokens.revoke",
  "notices.setMute",
  "notices.subscribe",
  "notices.unsubscribe",
];

type Proc = { _def: { type: "query" | "mutation" | "subscription"; meta?: ProcedureMeta } };
const proceduresOf = (r: { _def: { procedures: object } }) =>
  Object.entries(r._def.procedures as Record<string, Proc>).map(([path, proc]) => ({
    path,
    type: proc._def.type,
    meta: proc._def.meta ?? {},
  }));
const procedures = proceduresOf(appRouter);

/** What is wrong with the procedures' declarations; empty when every one is declared. */
function declarationProblems(list: ReturnType<typeof proceduresOf>): string[] {
  return list.flatMap(({ path, meta }) => {
    if (PUBLIC.includes(path))
      return meta.public && !meta.role ? [] : [`${path} is on the public list but not built with publicProcedure`];
    if (meta.public) return [`${path} is built with publicProcedure but not on the public list`];
    return meta.role && ["viewer", "operator", "admin"].includes(meta.role)
      ? []
      : [`${path} declares no role: build it with roleProcedure(...)`];
  });
}

const actor = (role: Role): Actor => ({ id: `user-${role}`, email: `${role}@matrix.test`, name: role, role });

async function codeOf(call: () => unknown): Promise<string> {
  try {
    const result = await call();
    // A subscription that passed its middleware hands back a stream: stop it.
    if (result && typeof result === "object" && Symbol.asyncIterator in result) {
      await (result as unknown as AsyncIterator<unknown>).return?.();
    }
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}`;
  }
}

describe("procedure declarations", () => {
  it("finds the routers' procedures", () => {
    expect(procedures.length).toBeGreaterThan(20);
    expect(procedures.map((p) => p.path)).toEqual(
      expect.arrayContaining([...PUBLIC, ...SELF_SERVICE_MUTATIONS, "loops.controls.kill", "users.create"]),
    );
  });

  it("every procedure declares a role or is on the public list", () => {
    expect(declarationProblems(procedures)).toEqual([]);
  });

  it("a procedure added without a declared role (or public by accident) is caught", () => {
    const rogue = router({
      bare: protectedProcedure.query(() => 1),
      open: publicProcedure.mutation(() => 1),
      fine: roleProcedure("operator").mutation(() => 1),
    });
    expect(declarationProblems(proceduresOf(rogue))).toEqual([
      "bare declares no role: build it with roleProcedure(...)",
      "open is built with publicProcedure but not on the public list",
    ]);
  });

  it("every viewer-role mutation is a deliberate self-service one", () => {
    const viewerMutations = procedures
      .filter((p) => p.type === "mutation" && p.meta.role === "viewer")
      .map((p) => p.path);
    expect(viewerMutations.sort()).toEqual([...SELF_SERVICE_MUTATIONS].sort());
  });
});

describeEachProvider("role matrix", ({ db }) => {
  const call = (who: Actor | null, path: string, input?: unknown) => {
    let target: unknown = callerAs(db(), who);
    for (const key of path.split(".")) target = (target as Record<string, unknown>)[key];
    return () => (target as (input?: unknown) => unknown)(input);
  };
  const guarded = procedures.filter((p) => !PUBLIC.includes(p.path));

  it.each(guarded.map((p) => [p.path]))("anonymous → UNAUTHORIZED: %s", async (path) => {
    expect(await codeOf(call(null, path))).toBe("UNAUTHORIZED");
  });

  it.each(
    guarded.filter((p) => p.type === "mutation" && !SELF_SERVICE_MUTATIONS.includes(p.path)).map((p) => [p.path]),
  )("viewer on a mutation → FORBIDDEN: %s", async (path) => {
    expect(await codeOf(call(actor("viewer"), path))).toBe("FORBIDDEN");
  });

  it.each(guarded.filter((p) => p.meta.role === "admin").map((p) => [p.path]))(
    "operator on an admin procedure → FORBIDDEN: %s",
    async (path) => {
      expect(await codeOf(call(actor("operator"), path))).toBe("FORBIDDEN");
      expect(await codeOf(call(actor("viewer"), path))).toBe("FORBIDDEN");
    },
  );

  it.each(guarded.filter((p) => p.meta.role === "operator").map((p) => [p.path]))(
    "viewer on an operator procedure → FORBIDDEN: %s",
    async (path) => {
      expect(await codeOf(call(actor("viewer"), path))).toBe("FORBIDDEN");
    },
  );

  it("a role that is enough passes the check (and then validates input)", async () => {
    expect(await codeOf(call(actor("viewer"), "loops.list", {}))).toBe("OK");
    expect(await codeOf(call(actor("operator"), "loops.controls.kill"))).toBe("BAD_REQUEST");
    expect(await codeOf(call(actor("admin"), "users.create"))).toBe("BAD_REQUEST");
  });
});
