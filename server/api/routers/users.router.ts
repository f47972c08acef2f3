// Admin: accounts and roles.
import { z } from "zod";
import { createAccount, listAccounts, resetPassword, updateAccount } from "../../auth/users.service";
import { ROLES } from "../../auth/sessions.service";
import { PASSWORD_MAX } from "../../auth/password";
import { router, adminProcedure as admin } from "../trpc";
import { idInput as userId } from "./id-inputs";
import { accountOutput, okOutput } from "./admin.types";
import { emailInput } from "./auth.router";

const role = z.enum(ROLES);

export const usersRouter = router({
  list: admin.output(z.array(accountOutput)).query(({ ctx }) => listAccounts(ctx.db)),
  create: admin
    .input(
      z.object({
        email: emailInput,
        name: z.string().trim().max(200).optional(),
        role,
        password: z.string().min(1).max(PASSWORD_MAX),
      }),
    )
    .output(accountOutput)
    .mutation(({ ctx, input }) => createAccount(ctx.db, input, ctx.services.engine.newId)),
  update: admin
    .input(
      z.object({
        id: userId,
        role: role.optional(),
        disabled: z.boolean().optional(),
        name: z.string().trim().max(200).optional(),
      }),
    )
    .output(accountOutput)
    .mutation(({ ctx, input }) => updateAccount(ctx.db, ctx.actor, input.id, input, ctx.services.engine.now())),
  resetPassword: admin
    .input(z.object({ id: userId, password: z.string().min(1).max(PASSWORD_MAX) }))
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await resetPassword(ctx.db, input.id, input.password, ctx.services.engine.now());
      return { ok: true as const };
    }),
});
