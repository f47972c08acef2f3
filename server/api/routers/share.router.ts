// Share links: operators create, list and revoke them; anyone holding a live
// token can read that one loop, redacted, and nothing else.
import { z } from "zod";
import {
  createShareLink,
  listShareLinks,
  resolveShareToken,
  revokeShare,
  sharedIterationPage,
  sharedLoopDetail,
} from "../../share/share-links.service";
import { notFound } from "../../errors";
import type { ApiContext } from "../context";
import { publicProcedure, router, operatorProcedure as operator } from "../trpc";
import { idInput as loopId, longIdInput as token } from "./id-inputs";
import { okOutput } from "./admin.types";
import { createdShareOutput, shareLinkOutput, sharedDetailOutput, sharedIterationPageOutput } from "./loops.types";

async function sharedLoopId(ctx: ApiContext, value: string) {
  const found = await resolveShareToken(ctx.db, value, ctx.clientIp, ctx.services.engine.now());
  if (!found) throw notFound("Shared page");
  return found.loopId;
}

export const shareRouter = router({
  create: operator
    .input(
      z.object({
        loopId,
        expiresInHours: z
          .number()
          .int()
          .min(1)
          .max(24 * 365)
          .optional(),
      }),
    )
    .output(createdShareOutput)
    .mutation(({ ctx, input }) => {
      const now = ctx.services.engine.now();
      return createShareLink(ctx.db, {
        loopId: input.loopId,
        expiresAt: input.expiresInHours ? new Date(now + input.expiresInHours * 3_600_000) : null,
        createdById: ctx.actor.id,
        newId: ctx.services.engine.newId,
      });
    }),
  list: operator
    .input(z.object({ loopId }))
    .output(z.array(shareLinkOutput))
    .query(({ ctx, input }) => listShareLinks(ctx.db, input.loopId, ctx.services.engine.now())),
  revoke: operator
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await revokeShare(ctx.db, input.id, ctx.services.engine.now());
      return { ok: true as const };
    }),

  /** The shared page's data: NOT_FOUND for unknown, expired or revoked tokens; TOO_MANY_REQUESTS when rate-limited. */
  view: publicProcedure
    .input(z.object({ token }))
    .output(sharedDetailOutput)
    .query(async ({ ctx, input }) => {
      const id = await sharedLoopId(ctx, input.token);
      return sharedLoopDetail(ctx.db, id, ctx.services.engine.now());
    }),
  iterations: publicProcedure
    .input(
      z.object({
        token,
        beforeNumber: z.number().int().min(1).optional(),
        limit: z.number().int().min(1).max(100).default(20),
      }),
    )
    .output(sharedIterationPageOutput)
    .query(async ({ ctx, input }) => sharedIterationPage(ctx.db, await sharedLoopId(ctx, input.token), input)),
});
