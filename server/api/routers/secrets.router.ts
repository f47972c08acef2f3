// Stored secrets. Admins set values (write-only) and each secret's usage
// scope; operators see which secrets they may use (never a value).
import { z } from "zod";
import { getSecretKey } from "../../secrets/secret-key";
import { secretScopeSchema } from "../../secrets/secret-scope";
import {
  deleteSecret,
  listSecrets,
  SECRET_KINDS,
  SECRET_NAME,
  setSecret,
  setSecretScope,
  usableSecrets,
} from "../../secrets/secrets.service";
import { roleProcedure, router, adminProcedure as admin } from "../trpc";
import { okOutput, secretListOutput, secretOutput, secretSetOutput, usableSecretsOutput } from "./admin.types";

export const secretsRouter = router({
  /** Name, kind, scope, "set" / "not set" and the last 4 characters; never a value. */
  list: admin.output(secretListOutput).query(({ ctx }) => listSecrets(ctx.db)),
  /** The secrets this user may put in a loop (by id), with their scope. */
  usable: roleProcedure("operator")
    .output(usableSecretsOutput)
    .query(({ ctx }) => usableSecrets(ctx.db, ctx.actor.role)),
  set: admin
    .input(
      z.object({
        name: z.string().trim().regex(SECRET_NAME, "use letters, digits, _ . - (start with a letter), at most 100"),
        kind: z.enum(SECRET_KINDS).default("provider_key"),
        value: z.string().min(1, "enter the secret value").max(10_000),
        scope: secretScopeSchema.optional(),
      }),
    )
    .output(secretSetOutput)
    .mutation(({ ctx, input }) =>
      setSecret(ctx.db, getSecretKey(), { ...input, actorId: ctx.actor.id }, ctx.services.engine.newId),
    ),
  /** Who may use a secret, with which adapters, sent to which hosts. */
  setScope: admin
    .input(z.object({ id: z.string().min(1).max(100), scope: secretScopeSchema }))
    .output(secretOutput)
    .mutation(({ ctx, input }) => setSecretScope(ctx.db, input.id, input.scope, ctx.actor.id)),
  delete: admin
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteSecret(ctx.db, input.id);
      return { ok: true as const };
    }),
});
