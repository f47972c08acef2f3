// Admin: provider keys and webhook secrets. Values go in, never come out.
import { z } from "zod";
import { getSecretKey } from "../../secrets/secret-key";
import { deleteSecret, listSecrets, SECRET_KINDS, SECRET_NAME, setSecret } from "../../secrets/secrets.service";
import { roleProcedure, router } from "../trpc";

const admin = roleProcedure("admin");

export const secretsRouter = router({
  /** Name, kind, "set" / "not set" and the last 4 characters; never a value. */
  list: admin.query(({ ctx }) => listSecrets(ctx.db)),
  set: admin
    .input(
      z.object({
        name: z.string().trim().regex(SECRET_NAME, "use letters, digits, _ . - (start with a letter), at most 100"),
        kind: z.enum(SECRET_KINDS).default("provider_key"),
        value: z.string().min(1, "enter the secret value").max(10_000),
      }),
    )
    .mutation(({ ctx, input }) => setSecret(ctx.db, getSecretKey(), { ...input, actorId: ctx.actor.id }, ctx.services.engine.newId)),
  delete: admin.input(z.object({ id: z.string().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    await deleteSecret(ctx.db, input.id);
    return { ok: true as const };
  }),
});
