// Sign-in, sign-out, the current user, own password, and first-run setup.
import { z } from "zod";
import { endSession, startSession } from "../../auth/sessions.service";
import { clearedSessionCookie, isHttps, sessionCookie } from "../../auth/session-cookie";
import { signIn } from "../../auth/sign-in.service";
import { createFirstAdmin, setupStatus } from "../../auth/setup.service";
import { changeOwnPassword } from "../../auth/users.service";
import { PASSWORD_MAX } from "../../auth/password";
import { permissionsOf } from "../../auth/actor";
import type { ApiContext } from "../context";
import { meOutput } from "./auth.types";
import { publicProcedure, roleProcedure, router } from "../trpc";
import { changePasswordOutput, setupOutput, setupStatusOutput, signInOutput } from "./misc.types";
import { okOutput } from "./admin.types";

export const emailInput = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("enter a valid email address"))
  .pipe(z.string().max(200));
const passwordInput = z.string().min(1, "enter your password").max(PASSWORD_MAX);

function setSessionCookie(ctx: ApiContext, token: string, expiresAt: Date) {
  const secure = isHttps(ctx.headers);
  const maxAgeSeconds = (expiresAt.getTime() - ctx.services.engine.now()) / 1000;
  ctx.responseHeaders?.append("set-cookie", sessionCookie(token, { secure, maxAgeSeconds }));
}

const me = (ctx: ApiContext) =>
  ctx.actor?.id
    ? {
        id: ctx.actor.id,
        email: ctx.actor.email,
        name: ctx.actor.name,
        role: ctx.actor.role,
        permissions: permissionsOf(ctx.actor),
      }
    : null;

export const authRouter = router({
  /** The signed-in user, or null: pages use it to decide what to show. */
  me: publicProcedure.output(meOutput).query(({ ctx }) => me(ctx)),

  signIn: publicProcedure
    .input(z.object({ email: emailInput, password: passwordInput }))
    .output(signInOutput)
    .mutation(async ({ ctx, input }) => {
      const session = await signIn(ctx.db, {
        email: input.email,
        password: input.password,
        ip: ctx.clientIp,
        userAgent: ctx.headers.get("user-agent"),
        now: ctx.services.engine.now(),
        newId: ctx.services.engine.newId,
      });
      setSessionCookie(ctx, session.token, session.expiresAt);
      return { ok: true as const, expiresAt: session.expiresAt };
    }),

  signOut: roleProcedure("viewer")
    .output(okOutput)
    .mutation(async ({ ctx }) => {
      if (ctx.sessionId) await endSession(ctx.db, ctx.sessionId, ctx.services.engine.now());
      ctx.responseHeaders?.append("set-cookie", clearedSessionCookie(isHttps(ctx.headers)));
      return { ok: true as const };
    }),

  changePassword: roleProcedure("viewer")
    .input(z.object({ currentPassword: passwordInput, newPassword: z.string().min(1).max(PASSWORD_MAX) }))
    .output(changePasswordOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await changeOwnPassword(ctx.db, {
        userId: ctx.actor.id ?? "",
        email: ctx.actor.email,
        sessionId: ctx.sessionId,
        current: input.currentPassword,
        next: input.newPassword,
        now: ctx.services.engine.now(),
      });
      return { ok: true as const, endedSessions: result.endedSessions };
    }),

  /** Whether first-run setup is needed, and allowed from where this request came. */
  setupStatus: publicProcedure.output(setupStatusOutput).query(({ ctx }) => setupStatus(ctx.db, ctx.headers)),

  /** Creates the first admin (loopback only, once) and signs them in. */
  setup: publicProcedure
    .input(
      z.object({
        email: emailInput,
        name: z.string().trim().max(200).optional(),
        password: z.string().min(1).max(PASSWORD_MAX),
      }),
    )
    .output(setupOutput)
    .mutation(async ({ ctx, input }) => {
      const user = await createFirstAdmin(ctx.db, ctx.headers, input, ctx.services.engine.newId);
      const session = await startSession(ctx.db, {
        userId: user.id,
        now: ctx.services.engine.now(),
        newId: ctx.services.engine.newId,
        ip: ctx.clientIp,
      });
      setSessionCookie(ctx, session.token, session.expiresAt);
      return { ok: true as const, email: user.email };
    }),
});
