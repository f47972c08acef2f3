// Personal API tokens (Settings → Tokens, used by the `ralph` CLI). Every
// signed-in user manages their own; the value is returned once, by create.
import { z } from "zod";
import { createApiToken, listTokens, revokeTokenById } from "../../auth/api-tokens.service";
import { ROLES } from "../../auth/sessions.service";
import { router, viewerProcedure as self } from "../trpc";

const tokenOutput = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  role: z.enum(ROLES),
  ownerEmail: z.string(),
  createdAt: z.date(),
  expiresAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  active: z.boolean(),
});

export const tokensRouter = router({
  /** Your tokens (admins: `all` for everyone's), newest first; never a token value. */
  list: self
    .input(z.object({ all: z.boolean().default(false) }).default({ all: false }))
    .output(z.array(tokenOutput))
    .query(async ({ ctx, input }) =>
      (await listTokens(ctx.db, ctx.actor, input.all, ctx.services.engine.now())).map((t) => ({
        ...t,
        role: t.role as (typeof ROLES)[number],
      })),
    ),
  /** The token value is in this answer and nowhere else, ever. */
  create: self
    .input(
      z.object({
        name: z.string().trim().min(1, "name the token (e.g. ci, laptop)").max(100),
        role: z.enum(ROLES).optional(),
        expiresInDays: z.number().int().min(1).max(3650).nullish(),
      }),
    )
    .output(
      z.object({
        id: z.string(),
        name: z.string(),
        role: z.enum(ROLES),
        token: z.string(),
        expiresAt: z.date().nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { token, row } = await createApiToken(ctx.db, ctx.actor, input, {
        now: ctx.services.engine.now(),
        newId: ctx.services.engine.newId,
      });
      return { id: row.id, name: row.name, role: row.role as (typeof ROLES)[number], token, expiresAt: row.expiresAt };
    }),
  /** Takes effect on the token's next request. */
  revoke: self
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => revokeTokenById(ctx.db, ctx.actor, input.id, ctx.services.engine.now())),
});
